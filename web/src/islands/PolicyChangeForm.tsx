// The policy change request on /policy-change (issue 28): which change, its own details, the date it should take
// effect and who asks. The kinds and which of their fields each requires come from the contract (`changeKinds`).
// With JavaScript only the chosen kind's section shows, with that kind's fields, marked required or optional as the
// kind says; without it (and on the no-JavaScript correction page) every section shows, each labelled with what it
// is for, and the server reads only the chosen kind's fields. Never a driver's license number: the form says the
// agency asks for it by phone. Rendered with `template` it becomes the no-JavaScript correction page's form.
import { changeChoices, changeForm, changeKinds, changeMessages, type ChangeField, type ChangeKind } from '@contract';
import { t } from '@i18n/islands';
import { useEffect, useRef, useState } from 'react';
import { Honeypot, LocaleInput, RuleInput, RuleTextarea, RadioGroup } from '../ui/Field';
import { Received } from './Received';
import { useLeadForm } from './useLeadForm';

/** The server's rules for this form (crates/contract): the inputs' limits come from the same values. */
const rules = changeForm.fields as Record<ChangeField, { required: boolean; minLength?: number; maxLength?: number; pattern?: string }>;
/** One change form on the site: its ids are fixed, and the server marks invalid fields by them. */
const id = (name: ChangeField | 'website') => `${changeForm.correctionIdPrefix}-${name}`;

type KindField = (typeof changeKinds)[number]['required'][number] | (typeof changeKinds)[number]['optional'][number];

/** How one of the kinds' fields is asked. */
interface Ask {
  name: KindField;
  label: string;
  hint?: string;
  control?: 'text' | 'number' | 'date' | 'textarea' | 'class';
  wide?: boolean;
}

/** A section of the kinds' fields: the kinds that share fields (adding or removing a vehicle) share a section. */
interface Section {
  key: string;
  legend: string;
  /** Without JavaScript every section shows: what it is for, and which of its fields each kind needs. */
  note: string;
  fields: Ask[];
}

/** What a vehicle and a trailer are both asked: its model year, its make and its stated value. */
const modelYear = (name: KindField): Ask => ({ name, label: t('Model Year'), control: 'number' });
const make = (name: KindField): Ask => ({ name, label: t('Make') });
const statedValue = (name: KindField): Ask => ({ name, label: t('Stated Value (US dollars)'), control: 'number' });

/** The kinds' fields, except the details that every kind may add (asked after the sections). */
function sections(): Section[] {
  return [
    {
      key: 'vehicle',
      legend: t('The vehicle'),
      note: t('To add a vehicle, all of these are needed; to remove one, the VIN is enough.'),
      fields: [
        modelYear('vehicle_year'),
        make('vehicle_make'),
        { name: 'vehicle_model', label: t('Model') },
        { name: 'vin', label: t('VIN'), hint: t('17 letters and digits, on the dashboard or the door frame.') },
        statedValue('stated_value'),
        { name: 'garaging_zip', label: t('Garaging ZIP Code'), hint: t('Where the vehicle is kept overnight.') },
      ],
    },
    {
      key: 'trailer',
      legend: t('The trailer'),
      note: t('To add a trailer, its year, make and VIN or serial number are needed; to remove one, the VIN or serial number is enough.'),
      fields: [
        modelYear('trailer_year'),
        make('trailer_make'),
        { name: 'trailer_vin', label: t('VIN or Serial Number'), hint: t('An older trailer may have a shorter serial number.') },
        statedValue('trailer_stated_value'),
      ],
    },
    {
      key: 'driver',
      legend: t('The driver'),
      note: t('To add a driver, all of these are needed; to remove one, the name is enough.'),
      fields: [
        { name: 'driver_name', label: t("Driver's Full Name") },
        { name: 'driver_date_of_birth', label: t('Date of Birth'), control: 'date' },
        { name: 'license_state', label: t('License State'), hint: t('Two-letter code, such as TX.') },
        { name: 'license_class', label: t('License Class'), control: 'class' },
        { name: 'hire_date', label: t('Hire Date'), control: 'date' },
      ],
    },
    {
      key: 'address',
      legend: t('The new address'),
      note: t('To change the mailing or garaging address.'),
      fields: [{ name: 'new_address', label: t('New Address'), control: 'textarea', wide: true, hint: t('Street, city, state and ZIP code, and whether it is the mailing or the garaging address.') }],
    },
    {
      key: 'lienholder',
      legend: t('The lienholder or loss payee'),
      note: t('To change the lienholder or loss payee.'),
      fields: [
        { name: 'lienholder_name', label: t('Lienholder or Loss Payee Name'), wide: true },
        { name: 'lienholder_address', label: t('Their Mailing Address'), control: 'textarea', wide: true },
        { name: 'lienholder_vehicle', label: t('Which Vehicle or Trailer'), wide: true, hint: t('Unit number or VIN; leave empty if it is for every unit.') },
      ],
    },
  ];
}

/** Kinds as the contract lists them, by value. */
const kindOf = (value: string) => changeKinds.find((kind) => kind.value === value);
const uses = (kind: (typeof changeKinds)[number], name: string) => (kind.required as readonly string[]).includes(name) || (kind.optional as readonly string[]).includes(name);
const requires = (kind: (typeof changeKinds)[number], name: string) => (kind.required as readonly string[]).includes(name);
/** Whether some kind requires the field: without a kind chosen, the others are marked optional. */
const requiredBySome = (name: string) => changeKinds.some((kind) => requires(kind, name));

/** A day on the visitor's calendar as YYYY-MM-DD. */
function ymd(day: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** Today and a year from today, the first and last effective dates the server takes (from 29 February, a year later
 * is 28 February, as the contract counts it). */
function effectiveRange(): [string, string] {
  const now = new Date();
  const later = new Date(now.getFullYear() + 1, now.getMonth(), now.getDate());
  const sameMonth = later.getMonth() === now.getMonth() ? later : new Date(now.getFullYear() + 1, now.getMonth() + 1, 0);
  return [ymd(now), ymd(sameMonth)];
}

export interface PolicyChangeFormProps {
  /** The confirmation's words (`[received]` of content/pages/policy-change.toml). */
  received: { heading: string; text: string };
  /** When requests are read (`after_hours` of the same file). */
  afterHours: string;
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template?: boolean;
}

export default function PolicyChangeForm({ received: copy, afterHours, template = false }: PolicyChangeFormProps) {
  // Set once the island runs: only then can it show one kind's section at a time.
  const [enhanced, setEnhanced] = useState(false);
  const [kindValue, setKindValue] = useState<ChangeKind | ''>('');
  const [range, setRange] = useState<[string, string] | undefined>(undefined);
  const formElement = useRef<HTMLFormElement | null>(null);
  const { errors, busy, received, sendAnother, error, field, formProps, buttonProps } = useLeadForm<ChangeField>({
    endpoint: changeForm.endpoint,
    template,
    toasts: {
      created: { title: t('Change request received!'), description: changeMessages.notInForceUntilConfirmed, variant: 'success' },
      rateLimited: changeForm.rateLimitMessage,
      failed: { title: t('Submission Error'), description: changeForm.failureMessage, variant: 'destructive' },
    },
  });

  useEffect(() => {
    setEnhanced(true);
    setRange(effectiveRange());
    // A kind chosen before the page's script ran.
    const chosen = formElement.current?.querySelector<HTMLInputElement>('input[name="change_kind"]:checked');
    if (chosen && kindOf(chosen.value)) setKindValue(chosen.value as ChangeKind);
  }, []);

  if (received) {
    return (
      <Received idPrefix={changeForm.correctionIdPrefix} title={copy.heading} description={copy.text} again={t('Request another change')} onAgain={() => { setKindValue(''); sendAnother(); }}>
        <p className="mt-3 font-semibold text-ink">{changeMessages.notInForceUntilConfirmed}</p>
        <p className="mt-2 text-muted">{afterHours}</p>
      </Received>
    );
  }

  const kind = enhanced ? kindOf(kindValue) : undefined;
  // With a kind chosen only its fields show; before the script runs (or in the template) every field does.
  const shown = (name: string) => !enhanced || (kind !== undefined && uses(kind, name));
  const required = (name: string) => (kind ? requires(kind, name) : false);
  const optional = (name: string) => (kind ? !requires(kind, name) : !requiredBySome(name));

  const input = (name: ChangeField, label: string, extra: { optional?: boolean; required?: boolean; hint?: string; type?: string; autoComplete?: string; inputMode?: 'numeric' | 'tel' | 'email'; min?: string; max?: string } = {}) => (
    <RuleInput
      id={id(name)}
      label={label}
      rule={rules[name]}
      {...field(name)}
      {...extra}
      optional={extra.optional ?? !rules[name].required}
      required={extra.required ?? rules[name].required}
    />
  );

  // Only the rule's maximum length: which kind needs the field decides whether it is required.
  const textarea = (name: ChangeField, label: string, extra: { optional: boolean; required: boolean; hint?: string }) => (
    <RuleTextarea id={id(name)} label={label} rule={{ required: extra.required, maxLength: rules[name].maxLength }} rows={3} {...field(name)} {...extra} />
  );

  const ask = (field: Ask) => {
    const common = { optional: optional(field.name), required: required(field.name), hint: field.hint };
    const control = field.control ?? 'text';
    const body =
      control === 'class' ? (
        <RadioGroup id={id(field.name)} name={field.name} legend={field.label} choices={changeChoices.licenseClass} optional={common.optional} required={common.required} error={error(field.name)} invalid={Boolean(errors[field.name])} />
      ) : control === 'textarea' ? (
        textarea(field.name, field.label, common)
      ) : (
        input(field.name, field.label, { ...common, type: control === 'date' ? 'date' : 'text', inputMode: control === 'number' ? 'numeric' : undefined })
      );
    return (
      <div key={field.name} hidden={!shown(field.name)} className={field.wide ? 'sm:col-span-2' : undefined}>
        {body}
      </div>
    );
  };

  const detailsRequired = kind ? requires(kind, 'change_details') : false;
  // noValidate: every rule and message comes from the server, under its field.
  return (
    <form {...formProps} ref={(form) => { formElement.current = form; formProps.ref(form); }} noValidate aria-labelledby="change-form-heading" className="rounded-2xl bg-white p-6 text-left shadow-lg md:p-8">
      <h2 id="change-form-heading" className="text-2xl font-bold">
        {t('Request a Change')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('For existing clients. Fields not marked optional are required.')}</p>
      <p className="mt-3 rounded-lg border-l-4 border-amber bg-mist p-3 font-semibold text-ink">{changeMessages.notInForceUntilConfirmed}</p>
      <div className="mt-5">
        <RadioGroup id={id('change_kind')} name="change_kind" legend={t('What needs to change?')} choices={changeKinds} columns error={error('change_kind')} invalid={Boolean(errors.change_kind)} onChange={template ? undefined : (chosen) => setKindValue(chosen as ChangeKind)} />
      </div>
      {sections().map((section) => {
        const visible = section.fields.some((field) => shown(field.name));
        return (
          <fieldset key={section.key} hidden={!visible} className="mt-6 grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-semibold">{section.legend}</legend>
            {!kind && <p className="text-sm text-muted sm:col-span-2">{section.note}</p>}
            {section.key === 'driver' && <p className="rounded-lg bg-sky p-3 text-sm text-ink sm:col-span-2">{changeMessages.licenseNumberByPhone}</p>}
            {section.fields.map(ask)}
          </fieldset>
        );
      })}
      <div hidden={enhanced && !kind} className="mt-6">
        {textarea('change_details', kindValue === 'other' ? t('The Change You Need') : t('Details of the Change'), {
          optional: !detailsRequired && kindValue !== 'other',
          required: detailsRequired,
          hint: kind ? undefined : t('Required for "Something else"; for the other changes, anything we should know.'),
        })}
      </div>
      <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">{t('When and who')}</legend>
        {input('effective_date', t('Effective Date'), { type: 'date', min: range?.[0], max: range?.[1], hint: t('Today to a year ahead: the day the change should start.') })}
        {input('policy_number', t('Policy Number'), { optional: true })}
        {input('insured_name', t('Insured Name (as on the policy)'), { autoComplete: 'organization' })}
        {input('name', t('Your Name'), { autoComplete: 'name' })}
        {input('phone', t('Phone'), { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
        {input('email', t('Email'), { type: 'email', autoComplete: 'email' })}
      </fieldset>
      <Honeypot id={id('website')} />
      <LocaleInput />
      <button {...buttonProps} className="mt-6 rounded-lg bg-navy px-6 py-3 text-lg font-semibold text-white hover:bg-ink aria-disabled:cursor-wait aria-disabled:opacity-70">
        {busy ? t('Sending...') : t('Send Change Request')}
      </button>
    </form>
  );
}
