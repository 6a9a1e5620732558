// "Speed up your quote": the operation's details an underwriter asks for, offered once a quote is stored, all
// optional. Inside the quote island's thank-you state (JavaScript, `token` from the 201 answer) and on the quote's
// no-JavaScript thank-you page, rendered as a template whose markers the server fills (the token among them).
import { detailsChoices, detailsForm, schedules, type DetailsField } from '@contract';
import { t } from '@i18n/islands';
import { describedBy, Field, Honeypot, inputClass, LocaleInput, RuleTextarea } from '../ui/Field';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

const rules = detailsForm.fields;
const scheduleLabels = {
  vehicle_schedule: t('Vehicles (CSV)'),
  driver_schedule: t('Drivers (CSV)'),
  loss_history: t('Losses in the last 10 years (CSV)'),
};

export interface DetailsFormProps {
  /** The quote's details token (from its 201 answer); absent in the template, where the server fills it in. */
  token?: string;
  /** Ids' prefix: one details form per page. */
  idPrefix?: string;
  /** Server-side only: render the markers the no-JavaScript page fills in. */
  template?: boolean;
}

export default function DetailsForm({ token, idPrefix = detailsForm.correctionIdPrefix, template = false }: DetailsFormProps) {
  const formId = `${idPrefix}-form`;
  const { errors, busy, received, receivedText, value, error, formProps, buttonProps } = useLeadForm<DetailsField>({
    endpoint: detailsForm.endpoint,
    template,
    // Checkboxes of one name, joined as the server reads them.
    body: (fields) => ({ ...fields, commodities: commoditiesOf(formId) }),
    toasts: {
      created: { title: t('Details received!'), description: t('Thank you: your specialist has what the underwriters ask for.'), variant: 'success' },
      rateLimited: detailsForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: detailsForm.failureMessage, variant: 'destructive' },
    },
  });
  const id = (name: DetailsField | 'website' | 'heading') => `${idPrefix}-${name}`;
  const described = (name: DetailsField, hint = false) => describedBy(id(name), { hint, error: errors[name] });

  const number = (name: 'years_in_business' | 'power_units' | 'trailers' | 'drivers' | 'claims_3y', label: string) => (
    <Field id={id(name)} label={label} optional error={error(name)}>
      <input id={id(name)} name={name} type="number" inputMode="numeric" step={1} min={rules[name].min} max={rules[name].max} defaultValue={value(name)} className={inputClass} {...described(name)} />
    </Field>
  );
  const date = (name: 'policy_expiration' | 'effective_date', label: string) => (
    <Field id={id(name)} label={label} optional error={error(name)}>
      <input id={id(name)} name={name} type="date" defaultValue={value(name)} className={inputClass} {...described(name)} />
    </Field>
  );
  const select = (name: 'radius' | 'best_time_to_call' | 'hazmat', label: string, options: readonly { value: string; label: string }[]) => (
    <Field id={id(name)} label={label} optional error={error(name)}>
      {/* No default in the template: the server marks the chosen option, and a select may have one selected only. */}
      <select id={id(name)} name={name} defaultValue={template ? undefined : ''} className={inputClass} {...described(name)}>
        <option value="">{t('Choose...')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );

  // Details are sent once per quote: what takes the form's place offers no other.
  if (received) {
    return <Received idPrefix={idPrefix} title={t('Details received')} description={receivedText} />;
  }
  return (
    <form {...formProps} id={formId} noValidate aria-labelledby={id('heading')} className="rounded-2xl bg-white p-6 text-left text-ink shadow-lg md:p-8">
      <h2 id={id('heading')} className="text-2xl font-bold">
        {t('Speed up your quote')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('Optional. Everything here is what an underwriter asks on the first call; send what you know.')}</p>
      <input type="hidden" name="details_token" defaultValue={template ? value('details_token') : (token ?? '')} />
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <Field id={id('mc_number')} label={t('MC Number')} optional error={error('mc_number')}>
          <input id={id('mc_number')} name="mc_number" type="text" inputMode="numeric" autoComplete="off" defaultValue={value('mc_number')} className={inputClass} {...described('mc_number')} />
        </Field>
        {number('years_in_business', t('Years in Business'))}
        {select('radius', t('Operating Radius'), detailsChoices.radius)}
        <Field id={id('operating_states')} label={t('States You Operate In')} optional hint={t('Two-letter codes, such as TX, OK, NM.')} error={error('operating_states')}>
          <input id={id('operating_states')} name="operating_states" type="text" autoComplete="off" maxLength={rules.operating_states.maxLength} defaultValue={value('operating_states')} className={inputClass} {...described('operating_states', true)} />
        </Field>
      </div>
      <fieldset className="mt-5" aria-describedby={`${id('commodities')}-error`}>
        <legend className="text-sm font-semibold">
          {`${t('Commodities You Haul')} `}
          <span className="font-normal text-muted">{t('(optional)')}</span>
        </legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {detailsChoices.commodities.map((choice) => (
            <label key={choice.value} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="commodities" value={choice.value} data-fill={`commodities:${choice.value}`} className="size-4 accent-navy" />
              {choice.label}
            </label>
          ))}
        </div>
        <p id={`${id('commodities')}-error`} className="mt-1 text-sm font-medium text-danger empty:hidden">
          {error('commodities')}
        </p>
      </fieldset>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field id={id('commodities_other')} label={t('Other Commodities')} optional hint={t('If you chose Other.')} error={error('commodities_other')}>
          <input id={id('commodities_other')} name="commodities_other" type="text" autoComplete="off" maxLength={rules.commodities_other.maxLength} defaultValue={value('commodities_other')} className={inputClass} {...described('commodities_other', true)} />
        </Field>
        {select('hazmat', t('Hazardous Materials'), [
          { value: 'yes', label: t('Yes, we haul hazmat') },
          { value: 'no', label: t('No hazmat') },
        ])}
        {number('power_units', t('Power Units'))}
        {number('trailers', t('Trailers'))}
        {number('drivers', t('Drivers'))}
        {number('claims_3y', t('Claims in the Last 3 Years'))}
        <Field id={id('current_insurer')} label={t('Current Insurer')} optional error={error('current_insurer')}>
          <input id={id('current_insurer')} name="current_insurer" type="text" autoComplete="off" maxLength={rules.current_insurer.maxLength} defaultValue={value('current_insurer')} className={inputClass} {...described('current_insurer')} />
        </Field>
        {date('policy_expiration', t('Current Policy Expires'))}
        {date('effective_date', t('New Policy Should Start'))}
        {select('best_time_to_call', t('Best Time to Call'), detailsChoices.bestTimeToCall)}
      </div>
      {/* Issue 39: the schedules as CSV text (a header line, then a row a line); the server reads and checks each row. */}
      {(['vehicle_schedule', 'driver_schedule', 'loss_history'] as const).map((name) => (
        <div key={name} className="mt-4">
          <RuleTextarea id={id(name)} name={name} label={scheduleLabels[name]} rule={rules[name]} rows={4} optional defaultValue={value(name)} error={error(name)} hint={schedules[name].columns.map((column) => column.name).join(', ')} />
        </div>
      ))}
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-amber px-6 py-3 text-lg font-semibold text-ink hover:bg-amber-light aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Send Details')}
      </button>
    </form>
  );
}

/** The chosen commodities of the form `formId`, comma-separated (FormData keeps only one value per name here). */
function commoditiesOf(formId: string): string {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return '';
  return new FormData(form).getAll('commodities').filter((v) => typeof v === 'string').join(',');
}
