// The dark hero band at the top of inner pages: kicker, title, intro, optional actions or side panel.
import type { ReactNode } from 'react';

export function PageHero({
  kicker,
  title,
  intro,
  children,
  aside,
}: {
  kicker?: string;
  title: string;
  intro?: string;
  children?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section aria-labelledby="page-title" className="bg-gradient-to-br from-ink to-navy text-white">
      <div className={`container-site grid items-center gap-12 py-14 md:py-20 ${aside ? 'lg:grid-cols-[1.2fr_1fr]' : ''}`}>
        <div className={aside ? '' : 'mx-auto max-w-3xl text-center'}>
          {kicker && <p className="kicker !text-amber">{kicker}</p>}
          {/* 30 px on a phone: a long word ("responsabilidad") at 36 px is wider than a 320 px screen; a word wider
              still breaks rather than push the page sideways. */}
          <h1 id="page-title" className="mt-3 text-3xl font-extrabold tracking-tight text-balance wrap-anywhere sm:text-4xl md:text-5xl">
            {title}
          </h1>
          {intro && <p className="mt-5 text-lg text-slate-200 md:text-xl">{intro}</p>}
          {children}
        </div>
        {aside}
      </div>
    </section>
  );
}
