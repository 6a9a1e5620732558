// /contact: the ways to reach the agency (e-mail, phone with the claims line, business hours, address) and the
// contact form island.
import { t } from '@i18n/pages';
import type { ReactNode } from 'react';
import { hoursText, page, site } from '../content';
import ContactForm from '../islands/ContactForm';
import { mailHref, pages, tel, telHref } from '../links';
import { Card } from '../ui/Card';
import { Icon, type IconName } from '../ui/Icon';
import { Island } from '../ui/Island';
import { Section } from '../ui/Section';
import { PageHero } from '../widgets/PageHero';

const linkClass = 'font-semibold text-steel underline underline-offset-2 hover:text-navy';

/** A note under the ways, for a client's other errands: its icon and a sentence with links. */
function Note({ icon, children }: { icon: IconName; children: ReactNode }) {
  return (
    <p className="mt-6 flex items-start gap-3 rounded-2xl border-l-4 border-amber bg-mist p-6">
      <Icon name={icon} className="mt-0.5 size-6 shrink-0 text-steel" />
      <span>{children}</span>
    </p>
  );
}

/** One way to reach us: its icon, its name, its link if it has one, and more about it. */
function Way({ icon, title, href, link, children }: { icon: IconName; title: string; href?: string; link?: string; children: ReactNode }) {
  return (
    <Card variant="flat">
      <Icon name={icon} className="size-7 text-steel" />
      <h3 className="mt-4 text-xl font-bold">{title}</h3>
      {href && (
        <p className="mt-2">
          <a href={href} className={linkClass}>
            {link}
          </a>
        </p>
      )}
      {children}
    </Card>
  );
}

export function Contact() {
  const copy = page<{ heading: string; intro: string }>('contact');
  return (
    <>
      <PageHero kicker={t('Contact')} title={copy.heading} intro={copy.intro} />
      <Section labelledBy="contact-ways-heading">
        <h2 id="contact-ways-heading" className="sr-only">
          {t('Ways to reach us')}
        </h2>
        <div className="grid gap-6 md:grid-cols-3">
          <Way icon="mail" title={t('Email Us')} href={mailHref} link={site.email}>
            <p className="mt-2 text-muted">{t('We reply within 24 hours.')}</p>
          </Way>
          <Way icon="phone" title={t('Call Us')} href={telHref} link={site.phone}>
            {/* The hours beside this card are when this number answers; claims after hours go elsewhere. */}
            <p className="mt-2 text-muted">
              {site.claims ? (
                <>
                  {t('Claims, around the clock:')}{' '}{site.claims.name},{' '}
                  <a href={tel(site.claims.phone_e164)} className={linkClass}>
                    {site.claims.phone}
                  </a>
                </>
              ) : (
                site.claims_text
              )}
            </p>
          </Way>
          <Way icon="clock" title={t('Business Hours')}>
            <dl className="mt-2 space-y-1">
              {site.hours.map((h) => (
                <div key={h.label} className="flex justify-between gap-4">
                  <dt className="font-medium">{h.label}</dt>
                  <dd className="text-muted">{hoursText(h)}</dd>
                </div>
              ))}
            </dl>
          </Way>
        </div>
        <Note icon="file">
          {t('Already a client and need a certificate of insurance for a broker or shipper?')}{' '}
          <a href={pages.certificateRequest.href} className={linkClass}>
            {t('Request a certificate')}
          </a>
          {t(': most go out the same business day.')}
        </Note>
        <Note icon="shield">
          {t('Had an accident?')}{' '}
          <a href={pages.reportAClaim.href} className={linkClass}>
            {t('Report a claim')}
          </a>
          {t('. A truck, trailer or driver to add or remove?')}{' '}
          <a href={pages.policyChange.href} className={linkClass}>
            {t('Request a policy change')}
          </a>
          .
        </Note>
        <div className="mt-6 flex items-start gap-3 rounded-2xl bg-mist p-6">
          <Icon name="mapPin" className="mt-0.5 size-6 shrink-0 text-steel" />
          <address className="not-italic">
            <span className="font-bold">{site.legal_name}</span>
            <br />
            {site.address.street}, {site.address.city}, {site.address.region} {site.address.postal_code}
          </address>
        </div>
      </Section>
      <Section tone="mist" labelledBy="contact-form-heading">
        <div className="mx-auto max-w-3xl">
          <Island name="ContactForm" component={ContactForm} props={{}} className="block" />
        </div>
      </Section>
    </>
  );
}
