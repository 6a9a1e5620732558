// What clients say: the three testimonials with their star ratings; an agency without any (content/testimonials.toml
// gone or empty) shows no section at all.
import { t } from '@i18n/pages';
import { content } from '../content';
import { Card } from '../ui/Card';
import { Section, SectionHeading } from '../ui/Section';
import { Stars } from '../ui/Stars';

export function Testimonials() {
  if (content.testimonials.length === 0) return null;
  return (
    <Section tone="mist" labelledBy="testimonials-heading">
      <SectionHeading id="testimonials-heading" kicker={t('Testimonials')} title={t('What Truckers Say About Us')} />
      <div className="grid gap-6 md:grid-cols-3">
        {content.testimonials.map((testimonial) => (
          <Card key={testimonial.name} as="figure" variant="raised" padding="lg" className="flex flex-col">
            <Stars rating={testimonial.rating} />
            <blockquote className="mt-4 flex-1 text-ink">
              <p>&ldquo;{testimonial.content}&rdquo;</p>
            </blockquote>
            <figcaption className="mt-6">
              <span className="block font-bold text-ink">{testimonial.name}</span>
              <span className="text-sm text-muted">{testimonial.position}</span>
            </figcaption>
          </Card>
        ))}
      </div>
    </Section>
  );
}
