// /opt-out (issue 25): where a visitor takes back their consent to calls, texts and e-mails. What it does, the form
// island, the other ways to opt out (a STOP reply, a call, an e-mail: the agency's number and address from
// content/facts.toml, as the contact page shows them), how soon it takes effect, and what a policy holder still hears about.
import { t } from '@i18n/pages';
import { page, site } from '../content';
import OptOutForm, { type OptOutReceivedCopy } from '../islands/OptOutForm';
import { mailHref, pages, telHref } from '../links';
import { Icon } from '../ui/Icon';
import { Island } from '../ui/Island';
import { Section } from '../ui/Section';
import { TextLink } from '../ui/TextLink';
import { PageHero } from '../widgets/PageHero';

/** content/pages/opt-out.toml (its shape is checked in crates/content/src/pages.rs). */
export interface OptOutCopy {
  heading: string;
  intro: string;
  timing: string;
  policy_note: string;
  received: OptOutReceivedCopy;
}

export function OptOut() {
  const copy = page<OptOutCopy>('opt-out');
  return (
    <>
      <PageHero kicker={t('Your choices')} title={copy.heading} intro={copy.intro} />
      <Section tone="mist">
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
          <Island name="OptOutForm" component={OptOutForm} props={{ received: copy.received, privacyHref: pages.privacy.href }} className="block min-w-0" />
          <div className="min-w-0 space-y-6">
            <section aria-labelledby="optout-other-ways" className="rounded-2xl bg-white p-6 shadow-sm md:p-8">
              <h2 id="optout-other-ways" className="text-2xl font-bold">
                {t('Other ways to opt out')}
              </h2>
              <ul className="mt-5 space-y-4">
                <li className="flex gap-3">
                  <Icon name="message" className="mt-0.5 size-6 shrink-0 text-steel" />
                  <span>{t('Reply STOP to any text message from us.')}</span>
                </li>
                <li className="flex gap-3">
                  <Icon name="phone" className="mt-0.5 size-6 shrink-0 text-steel" />
                  <span>
                    {t('Call us at')} <TextLink href={telHref}>{site.phone}</TextLink> {t('and tell us to stop.')}
                  </span>
                </li>
                <li className="flex gap-3">
                  <Icon name="mail" className="mt-0.5 size-6 shrink-0 text-steel" />
                  {/* An address is one long word: it may break anywhere rather than push a phone's screen sideways. */}
                  <span className="min-w-0 wrap-anywhere">
                    {t('Write to')} <TextLink href={mailHref}>{site.email}</TextLink> {t('and tell us to stop.')}
                  </span>
                </li>
              </ul>
            </section>
            <p className="flex gap-3 rounded-2xl border-l-4 border-amber bg-white p-6">
              <Icon name="clock" className="mt-0.5 size-6 shrink-0 text-navy" />
              <span>{copy.timing}</span>
            </p>
            <p className="flex gap-3 rounded-2xl bg-white p-6 text-muted">
              <Icon name="info" className="mt-0.5 size-6 shrink-0 text-steel" />
              <span>{copy.policy_note}</span>
            </p>
          </div>
        </div>
      </Section>
    </>
  );
}
