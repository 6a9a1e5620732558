// The certificate of insurance request on /certificate-request, for existing clients: who asks, whose policy, who
// holds the certificate and by when. It posts JSON to the leads API and shows toasts; without JavaScript it is a
// plain form post. Rendered with `template` it becomes the no-JavaScript correction page's form.
import { coiForm, type CoiField } from '@contract';
import { t } from '@i18n/islands';
import { describedBy, Field, Honeypot, inputClass, LocaleInput, RuleInput, type InputRule } from '../ui/Field';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = coiForm.fields;
/** One certificate form on the site: its ids are fixed, and the server marks invalid fields by them. */
const id = (name: CoiField | 'website') => `${coiForm.correctionIdPrefix}-${name}`;

export interface CoiFormProps {
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

export default function CoiForm({ template = false }: CoiFormProps) {
  const { errors, busy, received, receivedText, sendAnother, value, error, field, formProps, buttonProps } = useLeadForm<CoiField>({
    endpoint: coiForm.endpoint,
    template,
    // Unticked checkboxes are absent from the form's fields: sent as false, as the server reads them.
    body: (fields) => ({ ...fields, additional_insured: fields.additional_insured === 'true', waiver_of_subrogation: fields.waiver_of_subrogation === 'true' }),
    toasts: {
      created: { title: t('Certificate request received!'), description: t('We will e-mail the certificate, usually the same business day.'), variant: 'success' },
      rateLimited: coiForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: coiForm.failureMessage, variant: 'destructive' },
    },
  });

  const text = (name: CoiField, label: string, extra: { optional?: boolean; hint?: string; type?: string; autoComplete?: string; inputMode?: 'numeric' | 'tel' } = {}) => (
    <RuleInput id={id(name)} label={label} rule={rules[name] as InputRule} {...field(name)} {...extra} />
  );

  const checkbox = (name: 'additional_insured' | 'waiver_of_subrogation', label: string, hint: string) => (
    <div className="flex gap-3">
      <input id={id(name)} name={name} type="checkbox" value="true" data-fill={name} className="mt-1 size-5 shrink-0 accent-navy" {...describedBy(id(name), { hint: true, error: errors[name] })} />
      <div>
        <label htmlFor={id(name)} className="block font-semibold text-ink">
          {label}
        </label>
        <p id={`${id(name)}-hint`} className="text-sm text-muted">
          {hint}
        </p>
        <p id={`${id(name)}-error`} className="mt-1 text-sm font-medium text-danger empty:hidden">
          {error(name)}
        </p>
      </div>
    </div>
  );

  if (received) {
    return (
      <Received
        idPrefix={coiForm.correctionIdPrefix}
        title={t('Certificate request received')}
        description={receivedText}
        again={t('Request another certificate')}
        onAgain={sendAnother}
      />
    );
  }
  // noValidate: every rule and message comes from the server, under its field.
  return (
    <form {...formProps} noValidate aria-labelledby="coi-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="coi-form-heading" className="text-2xl font-bold">
        {t('Request a Certificate')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('For existing clients. Fields not marked optional are required.')}</p>
      <fieldset className="mt-5 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('You')}</legend>
        {text('name', t('Your Name'), { autoComplete: 'name' })}
        {text('email', t('Email (we send the certificate here)'), { type: 'email', autoComplete: 'email' })}
        {text('phone', t('Phone'), { optional: true, type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
      </fieldset>
      <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('The insured')}</legend>
        {text('insured_name', t('Insured Name (as on the policy)'), { autoComplete: 'organization' })}
        {text('dot_number', t('DOT Number'), { optional: true, hint: t('1-8 digits.'), inputMode: 'numeric' })}
      </fieldset>
      <fieldset className="mt-6 grid gap-4">
        <legend className="mb-2 text-lg font-semibold">{t('The certificate holder')}</legend>
        {text('certificate_holder', t('Certificate Holder (broker, shipper, lessor...)'))}
        <Field id={id('holder_address')} label={t("Holder's Mailing Address")} error={error('holder_address')}>
          <textarea id={id('holder_address')} name="holder_address" rows={3} required={rules.holder_address.required} maxLength={rules.holder_address.maxLength} defaultValue={value('holder_address')} className={inputClass} {...describedBy(id('holder_address'), { error: errors.holder_address })} />
        </Field>
        {checkbox('additional_insured', t('Add the holder as additional insured'), t('Only if their contract asks for it; we check your policy allows it.'))}
        {checkbox('waiver_of_subrogation', t('Include a waiver of subrogation'), t('Only if their contract asks for it.'))}
        <div className="sm:max-w-xs">{text('needed_by', t('Needed By'), { type: 'date' })}</div>
        <Field id={id('notes')} label={t('Notes')} optional error={error('notes')}>
          <textarea id={id('notes')} name="notes" rows={3} maxLength={rules.notes.maxLength} defaultValue={value('notes')} className={inputClass} {...describedBy(id('notes'), { error: errors.notes })} />
        </Field>
      </fieldset>
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Request Certificate')}
      </button>
    </form>
  );
}
