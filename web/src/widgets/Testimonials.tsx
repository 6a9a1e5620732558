// What clients say: the three testimonials with their star ratings.
import { content } from '../content';
import { Card } from '../ui/Card';
import { Section, SectionHeading } from '../ui/Section';
import { Stars } from '../ui/Stars';

export function Testimonials() {
  return (
    <Section tone="mist" labelledBy="testimonials-heading">
      <SectionHeading id="testimonials-heading" kicker="Testimonials" title="What Truckers Say About Us" />
      <div className="grid gap-6 md:grid-cols-3">
        {content.testimonials.map((t) => (
          <Card key={t.name} as="figure" variant="raised" padding="lg" className="flex flex-col">
            <Stars rating={t.rating} />
            <blockquote className="mt-4 flex-1 text-ink">
              <p>&ldquo;{t.content}&rdquo;</p>
            </blockquote>
            <figcaption className="mt-6">
              <span className="block font-bold text-ink">{t.name}</span>
              <span className="text-sm text-muted">{t.position}</span>
            </figcaption>
          </Card>
        ))}
      </div>
    </Section>
  );
}
