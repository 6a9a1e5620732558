// "Speed up your quote": the operation's details an underwriter asks for, offered once a quote is stored, all
// optional. Inside the quote island's thank-you state (JavaScript, `token` from the 201 answer) and on the quote's
// no-JavaScript thank-you page, rendered as a template whose markers the server fills (the token among them).
// The schedules (vehicles, drivers, losses) are CSV textareas without JavaScript and rows with it (ScheduleList),
// sent as JSON lists; the documents' own small form (Documents) follows the form, and stays once details are sent.
import { detailsChoices, detailsForm, schedules, type DetailsField } from '@contract';
import { t } from '@i18n/islands';
import { useRef, useState } from 'react';
import { describedBy, Field, Honeypot, inputClass, LocaleInput, RuleTextarea } from '../ui/Field';
import { scheduleRows, type ScheduleName } from './csv';
import { Documents } from './Documents';
import { Received } from './Received';
import { filledIn, keyed, rowField, ScheduleList, type KeyedRow } from './ScheduleList';
import { useLeadForm, type FieldErrors } from './useLeadForm';

const rules = detailsForm.fields;
const scheduleLabels = {
  vehicle_schedule: t('Vehicles (CSV)'),
  driver_schedule: t('Drivers (CSV)'),
  loss_history: t('Losses in the last 10 years (CSV)'),
};
// In the order an underwriter reads them (the contract's map is alphabetical).
const SCHEDULES = ['vehicle_schedule', 'driver_schedule', 'loss_history'] as const;
// Each list's hint: its CSV header line and a row of it.
const EXAMPLES = {
  vehicle_schedule: '2019,Freightliner,Cascadia,1M8GDM9AXKP042788,85000,75201',
  driver_schedule: 'Maria Lopez,1985-04-12,TX,12,0,0',
  loss_history: '2023-05-10,cargo,12500',
};
const hintOf = (name: ScheduleName) =>
  t('First line: {columns}. Then one line per row, such as: {example}', {
    columns: schedules[name].columns.map((column) => column.name).join(','),
    example: EXAMPLES[name],
  });

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
  const [lists, setLists] = useState<Record<ScheduleName, KeyedRow[]>>({ vehicle_schedule: [], driver_schedule: [], loss_history: [] });
  // Each list's rows' keys as last sent: the server's `vehicle_schedule[1].vin` is the row of the 2nd key.
  const sentKeys = useRef<Record<string, number[]>>({});
  const { errors, setErrors, busy, received, receivedText, value, error, formProps, buttonProps } = useLeadForm<DetailsField>({
    endpoint: detailsForm.endpoint,
    template,
    // A CSV left in a list's textarea is read as its button would: what cannot be read is said beside it.
    refuse: (fields) => {
      const refused: FieldErrors = {};
      for (const name of SCHEDULES) {
        const text = fields[name]?.trim();
        const read = text ? scheduleRows(name, text) : [];
        if (typeof read === 'string') refused[name] = read;
        else if (lists[name].filter(filledIn).length + read.length > schedules[name].maxRows) refused[name] = schedules[name].tooMany;
      }
      const first = Object.values(refused)[0];
      return first ? { toast: { title: t('Not Sent'), description: first, variant: 'destructive' }, errors: refused } : undefined;
    },
    // Checkboxes of one name, joined as the server reads them; each list as its rows in JSON (those filled in, and
    // a CSV left in its textarea, now shown as rows too), or the empty text when it has none.
    body: (fields) => {
      const sent: Record<string, unknown> = { commodities: commoditiesOf(formId) };
      for (const [name, typed] of Object.entries(fields)) if (!name.includes('[')) sent[name] ??= typed;
      const next = { ...lists };
      for (const name of SCHEDULES) {
        const read = fields[name]?.trim() ? scheduleRows(name, fields[name]) : [];
        next[name] = [...lists[name].filter(filledIn), ...(typeof read === 'string' ? [] : read.map(keyed))];
        const textarea = document.getElementById(id(name));
        if (textarea instanceof HTMLTextAreaElement) textarea.value = '';
        sent[name] = next[name].length > 0 ? next[name].map((row) => row.v) : '';
        sentKeys.current[name] = next[name].map((row) => row.k);
      }
      setLists(next);
      return sent;
    },
    errorsOf: (errors) => {
      const named: FieldErrors = {};
      for (const [field, message] of Object.entries(errors)) {
        const [, list = '', at, column = ''] = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(field) ?? [];
        const key = sentKeys.current[list]?.[Number(at)];
        named[key ? rowField(list, key, column) : field] = message;
      }
      return named;
    },
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

  // Details are sent once per quote: what takes the form's place offers no other. The documents stay: they may be
  // sent before or after the details.
  const documents = <Documents token={template ? (value('details_token') ?? '') : (token ?? '')} idPrefix={idPrefix} template={template} />;
  if (received) {
    return (
      <>
        <Received idPrefix={idPrefix} title={t('Details received')} description={receivedText} />
        {documents}
      </>
    );
  }
  return (
    <>
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
        {/* The schedules: without JavaScript as CSV text (a header line, then a row a line), which the server reads and
            checks row by row; with it as rows the browser reads from the CSV, sent as JSON lists. */}
        {SCHEDULES.map((name) =>
          template ? (
            <div key={name} className="mt-4">
              <RuleTextarea id={id(name)} name={name} label={scheduleLabels[name]} rule={rules[name]} rows={4} optional defaultValue={value(name)} error={error(name)} hint={hintOf(name)} />
            </div>
          ) : (
            <ScheduleList
              key={name}
              name={name}
              id={id(name)}
              label={scheduleLabels[name]}
              hint={hintOf(name)}
              rule={rules[name]}
              rows={lists[name]}
              setRows={(update) => setLists((all) => ({ ...all, [name]: update(all[name]) }))}
              errors={errors}
              setErrors={setErrors}
            />
          ),
        )}
        <Honeypot id={id('website')} />
        <LocaleInput />
        <button {...buttonProps} className="mt-6 rounded-lg bg-amber px-6 py-3 text-lg font-semibold text-ink hover:bg-amber-light aria-disabled:cursor-wait aria-disabled:opacity-70">
          {busy ? t('Sending...') : t('Send Details')}
        </button>
      </form>
      {documents}
    </>
  );
}

/** The chosen commodities of the form `formId`, comma-separated (FormData keeps only one value per name here). */
function commoditiesOf(formId: string): string {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return '';
  return new FormData(form).getAll('commodities').filter((v) => typeof v === 'string').join(',');
}
