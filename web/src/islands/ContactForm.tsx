// The contact form on /contact: all four fields required, the server's first error per field shown inline,
// the spec's toasts for success, rate limit and failure. Without JavaScript it is a plain form post.
import { describedBy, Field, Honeypot, inputClass } from '../ui/Field';
import { useLeadForm } from './useLeadForm';

export const CONTACT_ENDPOINT = '/api/leads/contact';

export interface ContactFormProps {
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

type FieldName = 'name' | 'email' | 'subject' | 'message';

export default function ContactForm({ template = false }: ContactFormProps) {
  const { errors, busy, value, error, formProps, buttonProps } = useLeadForm<FieldName>({
    endpoint: CONTACT_ENDPOINT,
    template,
    toasts: {
      created: { title: 'Message received!', description: "Thank you for contacting us. We'll respond shortly.", variant: 'success' },
      rateLimited: 'Please wait 10 minutes before submitting another message.',
      failed: { title: 'Submission Error', description: "We're experiencing technical difficulties. Please try again later.", variant: 'destructive' },
    },
  });

  // noValidate: every rule and message comes from the server, in the spec's wording, under its field.
  return (
    <form {...formProps} noValidate aria-labelledby="contact-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="contact-form-heading" className="text-2xl font-bold">
        Send Us a Message
      </h2>
      <p className="mt-1 text-sm text-muted">All fields are required. We reply within 24 hours.</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <Field id="contact-name" label="Full Name" error={error('name')}>
          <input id="contact-name" name="name" type="text" autoComplete="name" required maxLength={100} defaultValue={value('name')} className={inputClass} {...describedBy('contact-name', { error: errors.name })} />
        </Field>
        <Field id="contact-email" label="Email Address" error={error('email')}>
          <input id="contact-email" name="email" type="email" autoComplete="email" required maxLength={255} defaultValue={value('email')} className={inputClass} {...describedBy('contact-email', { error: errors.email })} />
        </Field>
        <div className="sm:col-span-2">
          <Field id="contact-subject" label="Subject" error={error('subject')}>
            <input id="contact-subject" name="subject" type="text" required maxLength={200} autoComplete="off" defaultValue={value('subject')} className={inputClass} {...describedBy('contact-subject', { error: errors.subject })} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id="contact-message" label="Message" error={error('message')}>
            <textarea id="contact-message" name="message" rows={5} required maxLength={2000} defaultValue={value('message')} className={inputClass} {...describedBy('contact-message', { error: errors.message })} />
          </Field>
        </div>
      </div>
      <Honeypot id="contact-website" />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink disabled:cursor-wait disabled:opacity-70">
        {busy ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
