// The quote form (home hero, /get-quote, product pages; compact in the product sidebar). It posts JSON to the
// leads API and shows the spec's toasts; without JavaScript it is a plain form posting to the same address.
// Rendered with `template` it becomes the no-JavaScript error page's form, with markers the server fills in.
import { markers, quoteEmptyMessages, quoteForm, type QuoteField } from '@contract';
import { t } from '@i18n/islands';
import { describedBy, Field, Honeypot, inputClass, LocaleInput } from '../ui/Field';
import { LinkedWords } from '../ui/LinkedWords';
import { useState, type ComponentType } from 'react';
import type { DetailsFormProps } from './DetailsForm';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';
import { CarrierConfirm } from './CarrierConfirm';

// "Speed up your quote" (the details, their schedules and documents) is loaded only once a quote is taken: most
// visitors never see it. (Not React.lazy: its Suspense shows what loaded on a timer.)
let DetailsForm: ComponentType<DetailsFormProps> | undefined;

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = quoteForm.fields;

export interface QuoteFormProps {
  idPrefix: string;
  variant: 'full' | 'compact';
  heading: string;
  consentText: string;
  /** The words of the consent text that link to the opt-out page (content/forms.toml's `opt_out_link`), and its address. */
  consentLink: { words: string; href: string };
  /** The insurance types of content/forms.toml. */
  insuranceOptions: { value: string; label: string }[];
  insuranceType?: string;
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

export default function QuoteForm({ idPrefix, variant, heading, consentText, consentLink, insuranceOptions, insuranceType = '', template = false }: QuoteFormProps) {
  const [detailsToken, setDetailsToken] = useState<string | null>(null);
  // Set once the details form's code is here.
  const [, setLoaded] = useState(false);
  const { errors, busy, received, receivedText, sendAnother, value, error, formProps, buttonProps } = useLeadForm<QuoteField>({
    endpoint: quoteForm.endpoint,
    template,
    // Consent unticked: the spec's toast, and the same words beside the box. Nothing is sent without consent, so every
    // required field left empty is flagged too, in the server's words: one send says all that is missing. Focus goes
    // to the first field flagged.
    refuse: (fields) => {
      if (fields.consent) return undefined;
      const description = t('Please agree to our communication terms to proceed.');
      const empty = Object.entries(quoteEmptyMessages).filter(([name]) => !fields[name]?.trim());
      return { toast: { title: t('Consent Required'), description, variant: 'destructive' }, errors: { ...Object.fromEntries(empty), consent: description } };
    },
    body: (fields) => ({ ...fields, consent: true }),
    // The thank-you state: "Speed up your quote" with the token the 201 answer carries.
    onCreated: (answer) => {
      setDetailsToken(typeof answer.details_token === 'string' ? answer.details_token : null);
      void import('./DetailsForm').then((module) => {
        DetailsForm = module.default;
        setLoaded(true);
      });
    },
    toasts: {
      created: { title: t('Quote request submitted!'), description: t('A trucking insurance specialist will contact you shortly.'), variant: 'success' },
      failed: { title: t('Submission Error'), description: quoteForm.failureMessage, variant: 'destructive' },
    },
  });
  const id = (name: string) => `${idPrefix}-${name}`;
  const compact = variant === 'compact';
  const headingId = id('heading');
  // After a quote: "Request received" in the form's place (another may be asked for from there), and "Speed up your
  // quote" after it, with the token the 201 answer carried; once sent, the details form says so in its own place.
  return (
    <>
      {received ? (
        <Received
          idPrefix={idPrefix}
          compact={compact}
          title={t('Request received')}
          description={receivedText}
          again={t('Request another quote')}
          onAgain={sendAnother}
        />
      ) : (
      // noValidate: the browser's own messages are bubbles that vanish, away from the field; every rule is the
      // server's too (the inputs' attributes still say what is required and the limits), and its messages sit under
      // their fields, with focus on the first. The select and the consent box say they are required with
      // aria-required: a `required` one is exposed as invalid from the start, its value being empty.
      <form
        {...formProps}
        noValidate
        aria-labelledby={headingId}
        className={`rounded-2xl bg-white text-ink ${compact ? 'border border-slate-200 p-6 shadow-lg' : 'p-6 shadow-2xl md:p-8'}`}
      >
        <h2 id={headingId} className={`font-bold ${compact ? 'text-xl' : 'text-2xl'}`}>
          {heading}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('Free and without obligation. Most quotes within 24 hours.')}</p>
        <div className={`mt-5 grid gap-4 ${compact ? '' : 'sm:grid-cols-2'}`}>
          <Field id={id('name')} label={t('Full Name')} error={error('name')}>
            <input id={id('name')} name="name" type="text" autoComplete="name" required={rules.name.required} minLength={rules.name.minLength} maxLength={rules.name.maxLength} defaultValue={value('name')} className={inputClass} {...describedBy(id('name'), { error: errors.name })} />
          </Field>
          <Field id={id('email')} label={t('Email')} error={error('email')}>
            <input id={id('email')} name="email" type="email" autoComplete="email" required={rules.email.required} maxLength={rules.email.maxLength} pattern={rules.email.pattern} defaultValue={value('email')} className={inputClass} {...describedBy(id('email'), { error: errors.email })} />
          </Field>
          <Field id={id('phone')} label={t('Phone')} optional error={error('phone')}>
            <input id={id('phone')} name="phone" type="tel" autoComplete="tel" inputMode="tel" maxLength={rules.phone.maxLength} defaultValue={value('phone')} className={inputClass} {...describedBy(id('phone'), { error: errors.phone })} />
          </Field>
          <Field id={id('company')} label={t('Company')} optional error={error('company')}>
            <input id={id('company')} name="company" type="text" autoComplete="organization" maxLength={rules.company.maxLength} defaultValue={value('company')} className={inputClass} {...describedBy(id('company'), { error: errors.company })} />
          </Field>
          <Field id={id('insurance_type')} label={t('Insurance Type')} error={error('insurance_type')}>
            <select id={id('insurance_type')} name="insurance_type" aria-required={rules.insurance_type.required} defaultValue={template ? '' : insuranceType} className={inputClass} {...describedBy(id('insurance_type'), { error: errors.insurance_type })}>
              <option value="">{t('Select insurance type')}</option>
              {insuranceOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id={id('vehicle_count')} label={t('Number of Vehicles')} error={error('vehicle_count')}>
            <input id={id('vehicle_count')} name="vehicle_count" type="number" min={rules.vehicle_count.min} max={rules.vehicle_count.max} step={1} required={rules.vehicle_count.required} inputMode="numeric" autoComplete="off" defaultValue={value('vehicle_count')} className={inputClass} {...describedBy(id('vehicle_count'), { error: errors.vehicle_count })} />
          </Field>
          <div className={compact ? '' : 'sm:col-span-2'}>
            <Field id={id('dot_number')} label={t('DOT Number')} optional hint={t('For trucking businesses with a USDOT number (1-8 digits).')} error={error('dot_number')}>
              <input id={id('dot_number')} name="dot_number" type="text" inputMode="numeric" pattern={rules.dot_number.pattern} maxLength={rules.dot_number.maxLength} autoComplete="off" defaultValue={value('dot_number')} className={inputClass} {...describedBy(id('dot_number'), { hint: true, error: errors.dot_number })} />
            </Field>
            <CarrierConfirm idPrefix={idPrefix} />
          </div>
        </div>
        <Honeypot id={id('website')} />
        <LocaleInput />
        <div className="mt-5 flex gap-3">
          <input id={id('consent')} name="consent" type="checkbox" value="true" aria-required data-fill={markers.consentFill} className="mt-1 size-5 shrink-0 accent-navy" {...describedBy(id('consent'), { error: errors.consent })} />
          <div>
            {/* The link inside the label is interactive content: a click on it follows it without ticking the box
                (HTML's label activation skips interactive descendants), and Tab reaches it after the box. */}
            <label htmlFor={id('consent')} className={`block text-muted ${compact ? 'text-xs' : 'text-sm'}`}>
              <LinkedWords text={consentText} words={consentLink.words} href={consentLink.href} />
            </label>
            <p id={`${id('consent')}-error`} className="mt-1 text-sm font-medium text-danger empty:hidden">
              {error('consent')}
            </p>
          </div>
        </div>
        <button
          {...buttonProps}
          className="mt-6 flex w-full items-center justify-center rounded-lg bg-amber px-5 py-3 text-lg font-semibold text-ink shadow-sm hover:bg-amber-light aria-disabled:cursor-wait aria-disabled:opacity-70"
        >
          {busy ? t('Processing...') : t('Get My Free Quote')}
        </button>
      </form>
      )}
      {detailsToken && DetailsForm && (
        <div className="mt-6">
          <DetailsForm key={detailsToken} token={detailsToken} idPrefix={id('details')} />
        </div>
      )}
    </>
  );
}
