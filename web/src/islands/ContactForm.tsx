// The contact form on /contact: all four fields required, the server's first error per field shown inline,
// the spec's toasts for success, rate limit and failure. Without JavaScript it is a plain form post.
import { contactForm, type ContactField } from '@contract';
import { t } from '@i18n/islands';
import { describedBy, Field, Honeypot, inputClass, LocaleInput } from '../ui/Field';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = contactForm.fields;
/** One contact form on the site: its ids are fixed, and the server marks invalid fields by them. */
const id = (name: ContactField | 'website') => `${contactForm.correctionIdPrefix}-${name}`;

export interface ContactFormProps {
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

export default function ContactForm({ template = false }: ContactFormProps) {
  const { errors, busy, received, receivedText, sendAnother, value, error, formProps, buttonProps } = useLeadForm<ContactField>({
    endpoint: contactForm.endpoint,
    template,
    toasts: {
      created: { title: t('Message received!'), description: t("Thank you for contacting us. We'll respond shortly."), variant: 'success' },
      rateLimited: contactForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: contactForm.failureMessage, variant: 'destructive' },
    },
  });

  if (received) {
    return (
      <Received
        idPrefix={contactForm.correctionIdPrefix}
        title={t('Message received')}
        description={receivedText}
        again={t('Send another message')}
        onAgain={sendAnother}
      />
    );
  }
  // noValidate: every rule and message comes from the server, in the spec's wording, under its field.
  return (
    <form {...formProps} noValidate aria-labelledby="contact-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="contact-form-heading" className="text-2xl font-bold">
        {t('Send Us a Message')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('All fields are required. We reply within 24 hours.')}</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <Field id={id('name')} label={t('Full Name')} error={error('name')}>
          <input id={id('name')} name="name" type="text" autoComplete="name" required={rules.name.required} maxLength={rules.name.maxLength} defaultValue={value('name')} className={inputClass} {...describedBy(id('name'), { error: errors.name })} />
        </Field>
        <Field id={id('email')} label={t('Email Address')} error={error('email')}>
          <input id={id('email')} name="email" type="email" autoComplete="email" required={rules.email.required} maxLength={rules.email.maxLength} pattern={rules.email.pattern} defaultValue={value('email')} className={inputClass} {...describedBy(id('email'), { error: errors.email })} />
        </Field>
        <div className="sm:col-span-2">
          <Field id={id('subject')} label={t('Subject')} error={error('subject')}>
            <input id={id('subject')} name="subject" type="text" required={rules.subject.required} maxLength={rules.subject.maxLength} autoComplete="off" defaultValue={value('subject')} className={inputClass} {...describedBy(id('subject'), { error: errors.subject })} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id={id('message')} label={t('Message')} error={error('message')}>
            <textarea id={id('message')} name="message" rows={5} required={rules.message.required} maxLength={rules.message.maxLength} defaultValue={value('message')} className={inputClass} {...describedBy(id('message'), { error: errors.message })} />
          </Field>
        </div>
      </div>
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Send Message')}
      </button>
    </form>
  );
}
