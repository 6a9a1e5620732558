// /policy-change (issue 28): a client's request to change a policy (a unit, a driver, an address, a lienholder),
// said plainly to be a request: no change is in force until the agency confirms it (the contract's sentence). When
// requests are read (the business hours of content/facts.toml), then the PolicyChangeForm island.
import { changeMessages } from '@contract';
import { t } from '@i18n/pages';
import { hoursText, page, site } from '../content';
import PolicyChangeForm from '../islands/PolicyChangeForm';
import { telHref } from '../links';
import { Icon } from '../ui/Icon';
import { Island } from '../ui/Island';
import { Section } from '../ui/Section';
import { TextLink } from '../ui/TextLink';
import { PageHero } from '../widgets/PageHero';

/** content/pages/policy-change.toml (its shape is checked in crates/content/src/pages.rs). */
export interface ChangeCopy {
  heading: string;
  intro: string;
  confirmation: string;
  after_hours: string;
  form: { heading: string; intro: string };
  received: { heading: string; text: string };
}

/** The business hours, as the contact page lists them. */
export function BusinessHours() {
  return (
    <dl className="mt-3 space-y-1">
      {site.hours.map((h) => (
        <div key={h.label} className="flex flex-wrap justify-between gap-x-4">
          <dt className="font-medium">{h.label}</dt>
          <dd className="text-muted">{hoursText(h)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PolicyChange() {
  const copy = page<ChangeCopy>('policy-change');
  return (
    <>
      <PageHero kicker={t('Existing clients')} title={copy.heading} intro={copy.intro} />
      <Section labelledBy="change-terms-heading">
        <div className="mx-auto grid max-w-4xl gap-6 md:grid-cols-[3fr_2fr]">
          <div className="rounded-2xl border-l-4 border-amber bg-mist p-6">
            <h2 id="change-terms-heading" className="flex items-start gap-3 text-2xl font-bold">
              <Icon name="alert" className="mt-1 size-6 shrink-0 text-navy" />
              {changeMessages.notInForceUntilConfirmed}
            </h2>
            <p className="mt-3 text-lg">{copy.confirmation}</p>
            <p className="mt-3">
              {t('A load waiting on the change? Call us:')} <TextLink href={telHref}>{site.phone}</TextLink>
            </p>
          </div>
          <div className="rounded-2xl bg-mist p-6">
            <h2 className="flex items-center gap-3 text-xl font-bold">
              <Icon name="clock" className="size-6 shrink-0 text-navy" />
              {t('Business Hours')}
            </h2>
            <p className="mt-3 text-muted">{copy.after_hours}</p>
            <BusinessHours />
          </div>
        </div>
      </Section>
      <Section tone="mist" labelledBy="change-form-intro-heading">
        <div className="mx-auto max-w-3xl">
          <h2 id="change-form-intro-heading" className="text-3xl font-bold">
            {copy.form.heading}
          </h2>
          <p className="mt-3 mb-8 text-lg text-muted">{copy.form.intro}</p>
          <Island name="PolicyChangeForm" component={PolicyChangeForm} props={{ received: copy.received, afterHours: copy.after_hours }} className="block" />
        </div>
      </Section>
    </>
  );
}
