// The first notice of loss on /report-a-claim (issue 28): who reports, when and where the loss happened, what
// happened, and what helps the agency open the claim with the insurer. No marketing consent: this is service. It
// posts JSON to the leads API; once taken, <Received> shows the claim's reference the server answers with. Without
// JavaScript it is a plain form post. Rendered with `template` it becomes the no-JavaScript correction page's form.
import { claimChoices, claimForm, type ClaimField } from '@contract';
import { t } from '@i18n/islands';
import { useState } from 'react';
import { describedBy, Field, Honeypot, inputClass, LocaleInput, RuleInput, RuleTextarea, RadioGroup } from '../ui/Field';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = claimForm.fields as Record<ClaimField, { required: boolean; minLength?: number; maxLength?: number; pattern?: string }>;
/** One claim form on the site: its ids are fixed, and the server marks invalid fields by them. */
const id = (name: ClaimField | 'website') => `${claimForm.correctionIdPrefix}-${name}`;

/** An insurer the claim may name (content's `insurers`), with its claims line for the confirmation. */
export interface ClaimInsurer {
  id: string;
  name: string;
  claims_phone: string;
  claims_phone_e164: string;
}

export interface ClaimFormProps {
  insurers: ClaimInsurer[];
  /** The confirmation's words (`[received]` of content/pages/report-a-claim.toml). */
  received: { heading: string; text: string; emailed: string };
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

export default function ClaimForm({ insurers, received: copy, template = false }: ClaimFormProps) {
  // What the confirmation shows: the reference the server answered, and the insurer the report named (its line).
  const [answer, setAnswer] = useState<{ reference?: string; insurer?: string }>({});
  const { errors, busy, received, sendAnother, error, field, formProps, buttonProps } = useLeadForm<ClaimField>({
    endpoint: claimForm.endpoint,
    template,
    onCreated: (body) => setAnswer((shown) => ({ ...shown, reference: typeof body.reference === 'string' ? body.reference : undefined })),
    // The body is the form's own fields; the insurer they name is kept for the confirmation.
    body: (fields) => {
      setAnswer({ insurer: fields.insurer });
      return fields;
    },
    toasts: {
      created: { title: t('Claim report received!'), description: copy.text, variant: 'success' },
      rateLimited: claimForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: claimForm.failureMessage, variant: 'destructive' },
    },
  });

  const text = (name: ClaimField, label: string, extra: { optional?: boolean; hint?: string; type?: string; autoComplete?: string; inputMode?: 'numeric' | 'tel' | 'email' } = {}) => (
    <RuleInput id={id(name)} label={label} rule={rules[name]} {...field(name)} {...extra} />
  );

  const textarea = (name: ClaimField, label: string, rows: number, extra: { optional?: boolean; hint?: string } = {}) => (
    <RuleTextarea id={id(name)} label={label} rule={rules[name]} rows={rows} {...field(name)} {...extra} />
  );

  const radios = (name: 'injuries' | 'towed', legend: string, choices: readonly { value: string; label: string }[]) => (
    <RadioGroup id={id(name)} name={name} legend={legend} choices={choices} optional error={error(name)} invalid={Boolean(errors[name])} />
  );

  if (received) {
    const insurer = insurers.find((i) => i.id === answer.insurer);
    return (
      <Received idPrefix={claimForm.correctionIdPrefix} title={copy.heading} description={copy.text} again={t('Report another loss')} onAgain={sendAnother}>
        {answer.reference && (
          <p className="mt-3 text-lg">
            {t('Your reference:')} <strong className="font-mono">{answer.reference}</strong>
          </p>
        )}
        {insurer && (
          <p className="mt-3 text-muted">
            {t("{insurer}'s claims line:", { insurer: insurer.name })}{' '}
            <a href={`tel:${insurer.claims_phone_e164}`} className="font-semibold text-navy underline">
              {insurer.claims_phone}
            </a>
          </p>
        )}
        <p className="mt-3 text-muted">{copy.emailed}</p>
      </Received>
    );
  }
  // noValidate: every rule and message comes from the server, under its field.
  return (
    <form {...formProps} noValidate aria-labelledby="claim-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="claim-form-heading" className="text-2xl font-bold">
        {t('Report the Loss')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('No sales calls: we use this only for your claim. Fields not marked optional are required.')}</p>
      <fieldset className="mt-5 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('You')}</legend>
        {text('name', t('Your Name'), { autoComplete: 'name' })}
        {text('phone', t('Phone (we call you back here)'), { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
        {text('email', t('Email (for the confirmation)'), { optional: true, type: 'email', autoComplete: 'email' })}
      </fieldset>
      <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('The loss')}</legend>
        {text('loss_date', t('Date of the Loss'), { type: 'date' })}
        {text('loss_time', t('Time of the Loss'), { type: 'time', hint: t('On the clock where it happened; an estimate is fine.') })}
        {text('loss_city', t('City or Nearest Town'), { autoComplete: 'off' })}
        {text('loss_state', t('State'), { hint: t('Two-letter code, such as TX.') })}
        <div className="sm:col-span-2">{textarea('what_happened', t('What Happened'), 5, { hint: t('Where you were going, what happened and what is damaged: 10 to 2000 characters.') })}</div>
        {radios('injuries', t('Was anyone hurt?'), claimChoices.injuries)}
        {radios('towed', t('Was the truck towed?'), claimChoices.towed)}
        {text('police_report_number', t('Police Report Number'), { optional: true })}
      </fieldset>
      <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('The policy')}</legend>
        {text('insured_name', t('Insured or Company Name'), { optional: true, autoComplete: 'organization' })}
        {text('policy_number', t('Policy Number'), { optional: true })}
        <Field id={id('insurer')} label={t('Insurance Company')} optional error={error('insurer')}>
          {/* Each choice carries `data-fill="insurer:<id>"`: the no-JavaScript answer selects the one sent again. */}
          <select id={id('insurer')} name="insurer" defaultValue={template ? undefined : ''} className={inputClass} {...describedBy(id('insurer'), { error: errors.insurer })}>
            <option value="">{t('Choose the insurer')}</option>
            {insurers.map((insurer) => (
              <option key={insurer.id} value={insurer.id} data-fill={`insurer:${insurer.id}`}>
                {insurer.name}
              </option>
            ))}
            <option value={claimChoices.insurerNotSure.value} data-fill={`insurer:${claimChoices.insurerNotSure.value}`}>
              {claimChoices.insurerNotSure.label}
            </option>
          </select>
        </Field>
        <div className="sm:col-span-2">{textarea('vehicles_involved', t('Vehicles Involved'), 2, { optional: true, hint: t('Unit numbers or VINs of your trucks and trailers involved.') })}</div>
      </fieldset>
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Send Claim Report')}
      </button>
    </form>
  );
}
