// /get-quote: the quote form in the hero, why our quotes, and what to have ready for an underwriter.
import { t } from '@i18n/pages';
import { page, type TitledText } from '../content';
import { Card } from '../ui/Card';
import { Icon, type IconName } from '../ui/Icon';
import { IconList } from '../ui/IconList';
import { Section, SectionHeading } from '../ui/Section';
import { FeatureCards } from '../widgets/FeatureCards';
import { PageHero } from '../widgets/PageHero';
import { QuoteFormIsland } from '../widgets/QuoteFormIsland';

function Checklist({ title, items, icon }: { title: string; items: string[]; icon: IconName }) {
  return (
    <Card>
      <h3 className="flex items-center gap-3 text-xl font-bold">
        <Icon name={icon} className="size-6 text-steel" /> {title}
      </h3>
      <IconList items={items} icon="check" className="mt-5 space-y-3" itemClassName="flex gap-3" iconClassName="mt-0.5 size-5 shrink-0 text-success" />
    </Card>
  );
}

export function GetQuote() {
  const copy = page<{ heading: string; subtext: string; why: TitledText[]; checklist: { business: string[]; vehicles: string[] }; note: string }>('get-quote');
  return (
    <>
      <PageHero kicker={t('Free quote')} title={copy.heading} intro={copy.subtext} aside={<QuoteFormIsland idPrefix="page-quote" />} />
      <Section labelledBy="why-quotes-heading">
        <SectionHeading id="why-quotes-heading" title={t('Why Choose Our Insurance Quotes')} />
        <FeatureCards items={copy.why} icons={['layers', 'zap', 'award', 'shieldCheck']} />
      </Section>
      <Section tone="mist" labelledBy="checklist-heading">
        <SectionHeading id="checklist-heading" title={t('Information to Have Ready')} intro={t('The more we know, the more accurate your quote. Here is what underwriters ask for.')} />
        <div className="grid gap-6 md:grid-cols-2">
          <Checklist title={t('Business Information')} items={copy.checklist.business} icon="file" />
          <Checklist title={t('Vehicle and Driver Information')} items={copy.checklist.vehicles} icon="truck" />
        </div>
        <p className="mx-auto mt-8 flex max-w-3xl gap-3 rounded-2xl border-l-4 border-amber bg-white p-6 text-muted">
          <Icon name="info" className="size-6 shrink-0 text-navy" />
          {copy.note}
        </p>
      </Section>
    </>
  );
}
