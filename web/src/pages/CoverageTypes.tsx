// /coverage-types: every coverage with who requires it, how a coverage package is built, and coverage questions.
import { t } from '@i18n/pages';
import { coverages, page, type Faq as FaqEntry, type TitledText } from '../content';
import { pages } from '../links';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { Section, SectionHeading } from '../ui/Section';
import { CtaBanner } from '../widgets/CtaBanner';
import { Faq } from '../widgets/Faq';
import { FeatureCards } from '../widgets/FeatureCards';
import { PageHero } from '../widgets/PageHero';
import { ProductGrid } from '../widgets/ProductCards';

export function CoverageTypes() {
  const copy = page<{ heading: string; intro: string; package: TitledText[]; faq: FaqEntry[] }>('coverage-types');
  return (
    <>
      <PageHero kicker={t('Coverage types')} title={copy.heading} intro={copy.intro} />
      <Section labelledBy="coverage-cards-heading">
        <SectionHeading id="coverage-cards-heading" title={t('{count} Coverages for Trucking Operations', { count: coverages.length })} intro={t('Who requires each coverage and the minimum limits you will typically see.')} />
        <ProductGrid products={coverages} showRequiredBy />
      </Section>
      <Section tone="mist" labelledBy="package-heading">
        <SectionHeading id="package-heading" title={t('Building Your Coverage Package')} intro={t('Four things shape the right combination of coverages for your business.')} />
        <FeatureCards items={copy.package} icons={['truck', 'layers', 'mapPin', 'users']} />
        <p className="mt-10 text-center">
          <ButtonLink href={pages.quote.href} size="lg">
            {t('Request Your Free Analysis')}{' '}<Icon name="arrowRight" />
          </ButtonLink>
        </p>
      </Section>
      <Section labelledBy="coverage-faq-heading">
        <SectionHeading id="coverage-faq-heading" title={t('Coverage Questions')} />
        <Faq items={copy.faq} group="coverage-faq" />
      </Section>
      <CtaBanner />
    </>
  );
}
