// /report-a-claim (issue 28): what to do after an accident, in order; the claims lines of the insurers the agency
// places with (content/facts.toml `[[insurers]]`; without any, call the agency) and its own around-the-clock line
// when it has one; then the first notice of loss, the ClaimForm island.
import { t } from '@i18n/pages';
import { page, site, type TitledText } from '../content';
import ClaimForm from '../islands/ClaimForm';
import { tel, telHref } from '../links';
import { Card } from '../ui/Card';
import { Icon } from '../ui/Icon';
import { Island } from '../ui/Island';
import { Section, SectionHeading } from '../ui/Section';
import { TextLink } from '../ui/TextLink';
import { NarrowSection } from '../widgets/NarrowSection';
import { PageHero } from '../widgets/PageHero';

/** content/pages/report-a-claim.toml (its shape is checked in crates/content/src/pages.rs). */
export interface ClaimCopy {
  heading: string;
  intro: string;
  steps_heading: string;
  steps: TitledText[];
  lines: { heading: string; intro: string; none: string; unsure: string };
  form: { heading: string; intro: string };
  received: { heading: string; text: string; emailed: string };
}

export function ReportAClaim() {
  const copy = page<ClaimCopy>('report-a-claim');
  const insurers = site.insurers.map(({ id, name, claims_phone, claims_phone_e164 }) => ({ id, name, claims_phone, claims_phone_e164 }));
  return (
    <>
      <PageHero kicker={t('Existing clients')} title={copy.heading} intro={copy.intro} />
      <Section labelledBy="claim-steps-heading">
        <SectionHeading id="claim-steps-heading" title={copy.steps_heading} />
        <ol className="mx-auto grid max-w-4xl gap-5 md:grid-cols-2">
          {copy.steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy text-lg font-bold text-white">
                {index + 1}
              </span>
              <div className="min-w-0">
                <h3 className="text-xl font-bold">{step.title}</h3>
                <p className="mt-2 text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>
      <Section tone="mist" labelledBy="claim-lines-heading">
        <SectionHeading id="claim-lines-heading" title={copy.lines.heading} intro={site.insurers.length > 0 ? copy.lines.intro : undefined} />
        <div className="mx-auto max-w-4xl">
          {site.claims && (
            <p className="mb-6 flex gap-3 rounded-2xl border-l-4 border-amber bg-white p-6">
              <Icon name="headset" className="size-6 shrink-0 text-navy" />
              <span>
                {t('Claims, around the clock:')} {site.claims.name}, <TextLink href={tel(site.claims.phone_e164)}>{site.claims.phone}</TextLink>
              </span>
            </p>
          )}
          {site.insurers.length > 0 ? (
            <>
              <ul className="grid gap-6 md:grid-cols-2">
                {site.insurers.map((insurer) => (
                  <li key={insurer.id}>
                    <Card>
                      <h3 className="text-xl font-bold">{insurer.name}</h3>
                      <p className="mt-3 flex items-center gap-2">
                        <Icon name="phone" className="size-5 shrink-0 text-steel" />
                        <TextLink href={tel(insurer.claims_phone_e164)}>{insurer.claims_phone}</TextLink>
                      </p>
                      <p className="mt-2 flex min-w-0 items-center gap-2">
                        <Icon name="globe" className="size-5 shrink-0 text-steel" />
                        {/* An address is one long word: it may break anywhere rather than push a phone's screen sideways. */}
                        <span className="min-w-0 wrap-anywhere">
                          <TextLink href={insurer.claims_url}>{t('Report online to {insurer}', { insurer: insurer.name })}</TextLink>
                        </span>
                      </p>
                    </Card>
                  </li>
                ))}
              </ul>
              <p className="mt-6 text-center text-muted">
                {copy.lines.unsure} <TextLink href={telHref}>{site.phone}</TextLink>
              </p>
            </>
          ) : (
            <p className="rounded-2xl bg-white p-6 text-center text-lg">
              {copy.lines.none} <TextLink href={telHref}>{site.phone}</TextLink>
            </p>
          )}
        </div>
      </Section>
      <NarrowSection headingId="claim-form-intro-heading" heading={copy.form.heading}>
        <p className="mt-3 mb-8 text-lg text-muted">{copy.form.intro}</p>
        <Island name="ClaimForm" component={ClaimForm} props={{ insurers, received: copy.received }} className="block" />
      </NarrowSection>
    </>
  );
}
