// A page section whose content keeps to the reading column (max-w-3xl, centred) under its own heading: the story on
// /about, the explainer on /certificate-request, the claim form's introduction, the specialist's offer on /products.
// Also `Paragraphs`, a content text's paragraphs in the site's reading size.
import type { ReactNode } from 'react';
import { paragraphs } from '../content';
import { Section } from '../ui/Section';

export function NarrowSection({
  headingId,
  heading,
  tone,
  className,
  children,
}: {
  headingId: string;
  heading: string;
  tone?: 'white' | 'mist' | 'navy';
  /** The column's own look (a panel), after its width. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Section tone={tone} labelledBy={headingId}>
      <div className={['mx-auto max-w-3xl', className].filter(Boolean).join(' ')}>
        <h2 id={headingId} className="text-3xl font-bold">
          {heading}
        </h2>
        {children}
      </div>
    </Section>
  );
}

/** A content text (paragraphs parted by blank lines) as paragraphs, under a heading. */
export function Paragraphs({ text }: { text: string }) {
  return (
    <div className="mt-5 space-y-4 text-lg leading-relaxed text-muted">
      {paragraphs(text).map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}
