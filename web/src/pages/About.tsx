// /about: the agency's mission, its values and why truckers choose it.
import { t } from '@i18n/pages';
import { page, site, type TitledText } from '../content';
import { Card } from '../ui/Card';
import { Icon } from '../ui/Icon';
import { Section, SectionHeading } from '../ui/Section';
import { QuoteAndContactButtons } from '../widgets/CtaBanner';
import { FeatureCards } from '../widgets/FeatureCards';
import { NarrowSection, Paragraphs } from '../widgets/NarrowSection';
import { PageHero } from '../widgets/PageHero';

export function About() {
  const copy = page<{ intro: string; mission: { heading: string; body: string }; values: TitledText[]; reasons: TitledText[] }>('about');
  return (
    <>
      <PageHero kicker={t('Serving truckers since {year}', { year: site.founded })} title={copy.title.split('|')[0]?.trim() ?? t('About Us')} intro={copy.intro} />
      <NarrowSection headingId="mission-heading" heading={copy.mission.heading}>
        <Paragraphs text={copy.mission.body} />
      </NarrowSection>
      <Section tone="mist" labelledBy="values-heading">
        <SectionHeading id="values-heading" title={t('Our Core Values')} />
        <div className="grid gap-6 md:grid-cols-3">
          {copy.values.map((value, i) => (
            <Card key={value.title} variant="raised" padding="lg">
              <Icon name={(['shieldCheck', 'award', 'trendDown'] as const)[i] ?? 'shield'} className="size-8 text-steel" />
              <h3 className="mt-4 text-xl font-bold">{value.title}</h3>
              <p className="mt-2 text-muted">{value.text}</p>
            </Card>
          ))}
        </div>
      </Section>
      <Section labelledBy="reasons-heading">
        <SectionHeading id="reasons-heading" title={t('Why Choose {brand}', { brand: site.brand })} />
        <FeatureCards items={copy.reasons} icons={['layers', 'zap', 'headset', 'file']} />
        <QuoteAndContactButtons quoteLabel={t('Get a Free Quote')} className="mt-10 flex flex-wrap justify-center gap-4" />
      </Section>
    </>
  );
}
