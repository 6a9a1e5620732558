// /products: every vehicle type, the coverages of the header menu, and a specialist's offer of help.
import { t } from '@i18n/pages';
import { menuCoverages, page, site, vehicles } from '../content';
import { pages, telHref } from '../links';
import { ArrowLink } from '../ui/ArrowLink';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { Section, SectionHeading } from '../ui/Section';
import { NarrowSection } from '../widgets/NarrowSection';
import { PageHero } from '../widgets/PageHero';
import { ProductGrid } from '../widgets/ProductCards';

export function ProductsOverview() {
  const copy = page<{ heading: string; intro: string }>('products');
  return (
    <>
      <PageHero kicker={t('Our insurance')} title={copy.heading} intro={copy.intro} />
      <Section labelledBy="vehicles-heading">
        <SectionHeading id="vehicles-heading" title={t('Insurance by Vehicle Type')} intro={t('Coverage shaped around the truck you drive and the work it does.')} />
        <ProductGrid products={vehicles} />
      </Section>
      <Section tone="mist" labelledBy="coverages-heading">
        <SectionHeading id="coverages-heading" title={t('Insurance by Coverage Type')} intro={t('The protections trucking operations combine into one program.')} />
        <ProductGrid products={menuCoverages} />
        <p className="mt-8 text-center">
          <ArrowLink href={pages.coverageTypes.href}>{t('Compare all coverage types')}</ArrowLink>
        </p>
      </Section>
      <NarrowSection headingId="specialist-heading" heading={t('Not Sure What You Need?')} className="rounded-2xl bg-ink p-10 text-center text-white">
        <p className="mt-4 text-lg text-slate-200">{t('A specialist reviews your operation and explains the options, free and without obligation.')}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          <ButtonLink href={pages.quote.href} size="lg">
            {t('Speak With a Specialist')}
          </ButtonLink>
          <ButtonLink href={telHref} size="lg" variant="ghostLight">
            <Icon name="phone" />{' '}{t('Call {phone}', { phone: site.phone })}
          </ButtonLink>
        </div>
      </NarrowSection>
    </>
  );
}
