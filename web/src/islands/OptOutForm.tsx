// The opt-out form on /opt-out (issue 25): the phone number, the e-mail address or both that the agency must stop
// calling, texting and e-mailing, and a note. It posts to the opt-out endpoint like the lead forms post (useLeadForm),
// and without JavaScript it is a plain form post landing on /opt-out/received. Once taken, <Received> says what
// happens next (`WhatHappensNext`, also on the no-JavaScript page), never whether the number or address was known.
// Rendered with `template` it becomes the no-JavaScript correction page's form.
import { optOutForm, type OptOutField } from '@contract';
import { t } from '@i18n/islands';
import { describedBy, Field, Honeypot, inputClass, LocaleInput } from '../ui/Field';
import { LinkedWords } from '../ui/LinkedWords';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = optOutForm.fields;
/** One opt-out form on the site: its ids are fixed, and the server marks invalid fields by them. */
const id = (name: OptOutField | 'website' | 'which') => `${optOutForm.correctionIdPrefix}-${name}`;

/** What the visitor reads once the request is taken: `[received]` of content/pages/opt-out.toml. */
export interface OptOutReceivedCopy {
  heading: string;
  text: string;
  next: string[];
  erasure: string;
  /** The words of `erasure` that link to the privacy policy. */
  erasure_link: string;
}

export interface OptOutFormProps {
  received: OptOutReceivedCopy;
  /** The privacy policy's address in the page's language (islands never read links.ts). */
  privacyHref: string;
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

/** What happens after an opt-out: the same words in the form's "received" panel and on /opt-out/received. */
export function WhatHappensNext({ copy, privacyHref, level, className = '' }: { copy: OptOutReceivedCopy; privacyHref: string; level: 'h2' | 'h3'; className?: string }) {
  const Heading = level;
  return (
    <div className={className}>
      <Heading className="text-lg font-bold text-ink">{t('What happens next')}</Heading>
      <ul className="mt-2 list-disc space-y-2 pl-5 text-muted">
        {copy.next.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <p className="mt-3 text-muted">
        <LinkedWords text={copy.erasure} words={copy.erasure_link} href={privacyHref} />
      </p>
    </div>
  );
}

export default function OptOutForm({ received: copy, privacyHref, template = false }: OptOutFormProps) {
  const { errors, busy, received, receivedText, sendAnother, value, error, formProps, buttonProps } = useLeadForm<OptOutField>({
    endpoint: optOutForm.endpoint,
    template,
    toasts: {
      created: { title: t('Opt-out request recorded'), description: copy.text, variant: 'success' },
      rateLimited: optOutForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: optOutForm.failureMessage, variant: 'destructive' },
    },
  });

  if (received) {
    return (
      <Received idPrefix={optOutForm.correctionIdPrefix} title={copy.heading} description={receivedText} again={t('Stop another number or address')} onAgain={sendAnother}>
        <WhatHappensNext copy={copy} privacyHref={privacyHref} level="h3" className="mt-5" />
      </Received>
    );
  }
  // noValidate: every rule and message comes from the server, under its field (both fields empty: the same message
  // beside each, as either one will do).
  return (
    <form {...formProps} noValidate aria-labelledby="optout-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="optout-form-heading" className="text-2xl font-bold">
        {t('Your Opt-Out Request')}
      </h2>
      <fieldset className="mt-5 grid gap-4" aria-describedby={`${id('which')}-hint`}>
        <legend className="mb-2 text-lg font-semibold">{t('The number or address to stop contacting')}</legend>
        <p id={`${id('which')}-hint`} className="text-sm text-muted">
          {t('Give the phone number, the e-mail address, or both.')}
        </p>
        <Field id={id('phone')} label={t('Phone Number')} error={error('phone')}>
          <input id={id('phone')} name="phone" type="tel" autoComplete="tel" inputMode="tel" maxLength={rules.phone.maxLength} defaultValue={value('phone')} className={inputClass} {...describedBy(id('phone'), { error: errors.phone })} />
        </Field>
        <Field id={id('email')} label={t('Email Address')} error={error('email')}>
          <input id={id('email')} name="email" type="email" autoComplete="email" maxLength={rules.email.maxLength} pattern={rules.email.pattern} defaultValue={value('email')} className={inputClass} {...describedBy(id('email'), { error: errors.email })} />
        </Field>
      </fieldset>
      <div className="mt-4">
        <Field id={id('note')} label={t('Note')} optional error={error('note')}>
          <textarea id={id('note')} name="note" rows={3} maxLength={rules.note.maxLength} defaultValue={value('note')} className={inputClass} {...describedBy(id('note'), { error: errors.note })} />
        </Field>
      </div>
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Stop contacting me')}
      </button>
    </form>
  );
}
