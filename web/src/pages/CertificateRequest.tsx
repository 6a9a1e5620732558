// /certificate-request: what a certificate of insurance is, what the agency needs to issue one, the turnaround,
// and the request form island for existing clients.
import { t } from '@i18n/pages';
import { page, site, type TitledText } from '../content';
import CoiForm from '../islands/CoiForm';
import { telHref } from '../links';
import { Card } from '../ui/Card';
import { Icon } from '../ui/Icon';
import { Island } from '../ui/Island';
import { Section, SectionHeading } from '../ui/Section';
import { TextLink } from '../ui/TextLink';
import { NarrowSection, Paragraphs } from '../widgets/NarrowSection';
import { PageHero } from '../widgets/PageHero';

export function CertificateRequest() {
  const copy = page<{ heading: string; intro: string; turnaround: string; explainer: { heading: string; body: string }; needs: TitledText[] }>('certificate-request');
  return (
    <>
      <PageHero kicker={t('Existing clients')} title={copy.heading} intro={copy.intro} />
      <NarrowSection headingId="coi-explainer-heading" heading={copy.explainer.heading}>
        <Paragraphs text={copy.explainer.body} />
        <p className="mt-6 flex gap-3 rounded-2xl border-l-4 border-amber bg-mist p-6">
          <Icon name="clock" className="size-6 shrink-0 text-navy" />
          <span>
            {copy.turnaround} <TextLink href={telHref}>{site.phone}</TextLink>
          </span>
        </p>
      </NarrowSection>
      <Section tone="mist" labelledBy="coi-needs-heading">
        <SectionHeading id="coi-needs-heading" title={t('What We Need From You')} />
        <div className="grid gap-6 md:grid-cols-2">
          {copy.needs.map((need) => (
            <Card key={need.title}>
              <h3 className="flex items-center gap-3 text-xl font-bold">
                <Icon name="check" className="size-6 text-success" /> {need.title}
              </h3>
              <p className="mt-3 text-muted">{need.text}</p>
            </Card>
          ))}
        </div>
      </Section>
      <Section labelledBy="coi-form-heading">
        <div className="mx-auto max-w-3xl">
          <Island name="CoiForm" component={CoiForm} props={{}} className="block" />
        </div>
      </Section>
    </>
  );
}
