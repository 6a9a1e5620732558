// A page section with the site's width and rhythm, and its heading block.
import type { ReactNode } from 'react';

const tones = { white: 'bg-white', mist: 'bg-mist', navy: 'bg-ink text-white' } as const;

export function Section({
  children,
  tone = 'white',
  id,
  labelledBy,
  className = '',
}: {
  children: ReactNode;
  tone?: keyof typeof tones;
  id?: string;
  labelledBy?: string;
  className?: string;
}) {
  return (
    <section id={id} aria-labelledby={labelledBy} className={`${tones[tone]} py-16 md:py-20 ${className}`}>
      <div className="container-site">{children}</div>
    </section>
  );
}

export function SectionHeading({ id, title, intro, kicker }: { id: string; title: string; intro?: string; kicker?: string }) {
  return (
    <div className="mx-auto mb-10 max-w-3xl text-center md:mb-12">
      {kicker && <p className="kicker mb-2">{kicker}</p>}
      <h2 id={id} className="text-3xl font-bold tracking-tight text-balance md:text-4xl">
        {title}
      </h2>
      {intro && <p className="mt-4 text-lg text-muted">{intro}</p>}
    </div>
  );
}
