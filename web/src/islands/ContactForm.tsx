// The contact form on /contact: all four fields required, the server's first error per field shown inline,
// the spec's toasts for success, rate limit and failure. Without JavaScript it is a plain form post.
import { useRef, useState, type FormEvent } from 'react';
import { describedBy, Field, inputClass } from '../ui/Field';
import { focusFirstError, formFields, ignoreRepeatedClick, newSubmissionId, postLead, type FieldErrors } from './formSupport';
import { showToast } from './toast';

export const CONTACT_ENDPOINT = '/api/leads/contact';

export interface ContactFormProps {
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

export default function ContactForm({ template = false }: ContactFormProps) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  // Read synchronously by the next submit event, which can come before React re-renders with `busy`.
  const sending = useRef(false);
  const submissionId = useRef<string | null>(null);

  const value = (name: (typeof FIELDS)[number]) => (template ? `TRUCKINS_VALUE_${name}` : undefined);
  const error = (name: (typeof FIELDS)[number]) => (template ? `TRUCKINS_ERROR_${name}` : errors[name]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const form = event.currentTarget;
    submissionId.current ??= newSubmissionId();
    sending.current = true;
    setBusy(true);
    const result = await postLead(CONTACT_ENDPOINT, { ...formFields(form), submission_id: submissionId.current });
    sending.current = false;
    setBusy(false);
    if (result.kind === 'created') {
      form.reset();
      setErrors({});
      submissionId.current = null;
      showToast({ title: 'Message received!', description: "Thank you for contacting us. We'll respond shortly.", variant: 'success' });
    } else if (result.kind === 'invalid') {
      setErrors(result.errors);
      focusFirstError(form, result.errors);
    } else if (result.kind === 'rate-limited') {
      showToast({ title: 'Too Many Attempts', description: result.message || 'Please wait 10 minutes before submitting another message.', variant: 'destructive' });
    } else {
      showToast({ title: 'Submission Error', description: "We're experiencing technical difficulties. Please try again later.", variant: 'destructive' });
    }
  };

  // noValidate: every rule and message comes from the server, in the spec's wording, under its field.
  return (
    <form action={CONTACT_ENDPOINT} method="post" noValidate onSubmit={submit} onInput={() => {
        if (!sending.current) submissionId.current = null;
      }} aria-labelledby="contact-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
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
      <div className="absolute -left-[9999px] h-px w-px overflow-hidden" aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <button type="submit" disabled={busy} onClick={ignoreRepeatedClick} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink disabled:cursor-wait disabled:opacity-70">
        {busy ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
