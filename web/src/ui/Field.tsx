// A labelled form field with its hint and its error (red, under the field, tied to it for screen readers).
// `error` is always rendered as an element so the no-JavaScript template can put the server's message in it.
// Also an input and a text area whose limits are their contract rule's, the forms' honeypot field and the hidden field
// that says the page's language.
import { honeypot, locale } from '@contract';
import { t } from '@i18n/islands';
import type { ReactNode } from 'react';

/** A field's box: its border is slate-500, 4.8:1 on white (1.4.11 asks 3:1 of what shows where a field is). */
export const inputClass =
  'mt-1.5 block w-full rounded-lg border border-slate-500 bg-white px-3.5 py-2.5 text-base text-ink shadow-sm placeholder:text-slate-500 focus:border-steel aria-invalid:border-danger disabled:bg-mist';

export function Field({
  id,
  label,
  optional = false,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  optional?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
        {optional && <span className="font-normal text-muted">{` ${t('(optional)')}`}</span>}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger empty:hidden">
        {error}
      </p>
    </div>
  );
}

/** aria attributes of an input: its hint and error described, marked invalid when it has an error. */
export function describedBy(id: string, { hint = false, error }: { hint?: boolean; error?: string }) {
  return {
    'aria-describedby': [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' '),
    'aria-invalid': error ? true : undefined,
  };
}

/** What the contract says of a text field, for the browser to check before sending (the server checks it again). */
export interface InputRule {
  required: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** A labelled one-line input whose limits are its contract rule's. `error` is what shows under it (in the
 * no-JavaScript template, the server's marker); `invalid` is the error the browser has, which marks it invalid. */
export function RuleInput({
  id,
  name,
  label,
  rule,
  defaultValue,
  error,
  invalid,
  optional,
  hint,
  type = 'text',
  autoComplete = 'off',
  inputMode,
  required = rule.required,
  min,
  max,
}: {
  id: string;
  name: string;
  label: string;
  rule: InputRule;
  defaultValue?: string;
  error?: string;
  invalid?: string;
  optional?: boolean;
  hint?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email';
  required?: boolean;
  min?: string;
  max?: string;
}) {
  return (
    <Field id={id} label={label} optional={optional} hint={hint} error={error}>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        required={required}
        minLength={rule.minLength}
        maxLength={rule.maxLength}
        pattern={rule.pattern}
        min={min}
        max={max}
        defaultValue={defaultValue}
        className={inputClass}
        {...describedBy(id, { hint: Boolean(hint), error: invalid })}
      />
    </Field>
  );
}

/** A labelled text area whose limits are its contract rule's (`error` and `invalid` as for `RuleInput`). */
export function RuleTextarea({
  id,
  name,
  label,
  rule,
  rows,
  defaultValue,
  error,
  invalid,
  optional,
  hint,
  required = rule.required,
}: {
  id: string;
  name: string;
  label: string;
  rule: InputRule;
  rows: number;
  defaultValue?: string;
  error?: string;
  invalid?: string;
  optional?: boolean;
  hint?: string;
  required?: boolean;
}) {
  return (
    <Field id={id} label={label} optional={optional} hint={hint} error={error}>
      <textarea
        id={id}
        name={name}
        rows={rows}
        required={required}
        minLength={rule.minLength}
        maxLength={rule.maxLength}
        defaultValue={defaultValue}
        className={inputClass}
        {...describedBy(id, { hint: Boolean(hint), error: invalid })}
      />
    </Field>
  );
}

/** A field people never see (the contract's honeypot, `website`): programs that fill every field give themselves away. */
export function Honeypot({ id }: { id: string }) {
  return (
    <div className="absolute -left-[9999px] h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor={id}>{t('Website')}</label>
      <input id={id} name={honeypot} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/**
 * The page's language (`locale` of @contract), inside every lead form: posted with the form, as JSON (useLeadForm
 * sends the form's fields) and without JavaScript alike, so the server answers its messages in that language.
 */
export function LocaleInput() {
  return <input type="hidden" name={locale.field} value={locale.code} />;
}

/**
 * A group of radio buttons with its legend and its error, tied together for screen readers. The group carries the
 * field's id (`{id}`), so the server's no-JavaScript answer can mark the group invalid as it marks an input; each
 * button carries `data-fill="{name}:{value}"`, beside which the server writes `checked` for the value that was sent.
 */
export function RadioGroup({
  id,
  name,
  legend,
  choices,
  optional = false,
  required = !optional,
  hint,
  error,
  invalid,
  onChange,
  columns = false,
}: {
  id: string;
  name: string;
  legend: string;
  choices: readonly { value: string; label: string }[];
  optional?: boolean;
  /** A choice must be made (by default, when the group is not optional). */
  required?: boolean;
  hint?: string;
  /** The message shown (or the template's marker). */
  error?: string;
  /** Whether the group is marked invalid (a message from the server). */
  invalid?: boolean;
  /** Told each choice made, for a group whose choice changes the form (the policy change's kinds). */
  onChange?: (value: string) => void;
  columns?: boolean;
}) {
  return (
    // Said on the group with aria-required: a `required` radio button would be exposed as invalid before anything
    // was sent, as the browser's own check fails while none is chosen.
    <fieldset id={id} role="radiogroup" aria-required={required || undefined} {...describedBy(id, { hint: Boolean(hint), error: invalid ? 'invalid' : undefined })}>
      <legend className="block text-sm font-semibold text-ink">
        {legend}
        {optional && <span className="font-normal text-muted">{` ${t('(optional)')}`}</span>}
      </legend>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      <div className={`mt-2 grid gap-2 ${columns ? 'sm:grid-cols-2' : ''}`}>
        {choices.map((choice) => (
          <label key={choice.value} htmlFor={`${id}-${choice.value}`} className="flex items-start gap-2.5 rounded-lg border border-slate-200 px-3 py-2.5 has-checked:border-navy has-checked:bg-sky">
            <input
              id={`${id}-${choice.value}`}
              type="radio"
              name={name}
              value={choice.value}
              data-fill={`${name}:${choice.value}`}
              className="mt-1 size-4 shrink-0 accent-navy"
              onChange={onChange ? () => onChange(choice.value) : undefined}
            />
            <span className="text-ink">{choice.label}</span>
          </label>
        ))}
      </div>
      <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger empty:hidden">
        {error}
      </p>
    </fieldset>
  );
}
