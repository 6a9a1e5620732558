// One schedule of the details form with JavaScript (vehicles, drivers or losses): its rows as fieldsets of labelled
// inputs a fleet edits, adds and removes, filled from a pasted CSV (the textarea the form has without JavaScript)
// or an uploaded .csv file. The rows live in DetailsForm, which sends them as a JSON list; the server's errors on a
// row (`vehicle_schedule[1].vin`) show beside its input, the list's own beside the textarea.
import { lossKinds, schedules } from '@contract';
import { t } from '@i18n/islands';
import type { Dispatch, SetStateAction } from 'react';
import { fill } from '../i18n/fill';
import { describedBy, Field, inputClass, RuleTextarea, type InputRule } from '../ui/Field';
import { columnsOf, scheduleRows, type Row, type ScheduleName } from './csv';
import type { FieldErrors } from './useLeadForm';

/** A row with the key React keeps it by (rows are removed from the middle). */
export interface KeyedRow {
  k: number;
  v: Row;
}

let lastKey = 0;
export const keyed = (v: Row): KeyedRow => ({ k: ++lastKey, v });
export const filledIn = (row: KeyedRow) => Object.values(row.v).some(Boolean);

const LABELS: Record<string, string> = {
  year: t('Year'),
  make: t('Make'),
  model: t('Model'),
  vin: t('VIN'),
  stated_value: t('Stated value ($)'),
  garaging_zip: t('Garaging ZIP'),
  name: t('Name'),
  date_of_birth: t('Date of birth'),
  license_state: t('License state'),
  years_experience: t('Years of experience'),
  violations_3y: t('Violations (3 years)'),
  accidents_3y: t('Accidents (3 years)'),
  date: t('Date'),
  kind: t('Kind'),
  amount: t('Amount ($)'),
  description: t('Description'),
};

const NOUNS: Record<ScheduleName, [string, string, string]> = {
  vehicle_schedule: [t('Vehicles'), t('Vehicle {n}'), t('Add a vehicle')],
  driver_schedule: [t('Drivers'), t('Driver {n}'), t('Add a driver')],
  loss_history: [t('Losses in the last 10 years'), t('Loss {n}'), t('Add a loss')],
};

export const buttonClass = 'mt-3 rounded-lg border-2 border-navy px-4 py-2 text-sm font-semibold text-navy hover:bg-sky';

export interface ScheduleListProps {
  name: ScheduleName;
  /** The textarea's id (`page-quote-details-vehicle_schedule`); the rows' ids start with it. */
  id: string;
  label: string;
  hint: string;
  rule: InputRule;
  rows: KeyedRow[];
  setRows: (rows: KeyedRow[]) => void;
  errors: FieldErrors;
  setErrors: Dispatch<SetStateAction<FieldErrors>>;
}

export function ScheduleList({ name, id, label, hint, rule, rows, setRows, errors, setErrors }: ScheduleListProps) {
  const columns = columnsOf(name);
  const { maxRows, tooMany } = schedules[name];
  const [title, rowTitle, addTitle] = NOUNS[name];
  const element = (suffix = '') => document.getElementById(id + suffix);
  // The list's own message, set or cleared (the rows' stay).
  const listError = (message?: string) =>
    setErrors(({ [name]: _, ...rest }) => (message ? { ...rest, [name]: message } : rest));
  // A list's refusal, said beside its textarea, which takes focus (and so is read with it).
  const refuse = (message: string) => {
    listError(message);
    element()?.focus();
  };
  // New rows after those filled in (an empty row added and left so goes), focus on the first one's first input;
  // whether they were added.
  const add = (more: Row[], dropEmpty = false) => {
    const kept = dropEmpty ? rows.filter(filledIn) : rows;
    if (kept.length + more.length > maxRows) return refuse(tooMany);
    const added = more.map(keyed);
    setRows([...kept, ...added]);
    listError();
    requestAnimationFrame(() => element(`-${added[0]?.k}-${columns[0]?.name}`)?.focus());
    return true;
  };
  const fromCsv = (text: string, source: HTMLInputElement | HTMLTextAreaElement) => {
    const read = scheduleRows(name, text);
    if (typeof read === 'string') refuse(read);
    // The text goes once its rows are shown (kept when they would be too many).
    else if (read.length > 0 && add(read, true)) source.value = '';
  };
  const edit = (index: number, column: string, value: string) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, v: { ...row.v, [column]: value } } : row)));
  // The rows after the removed one move up: so do their errors' names.
  const remove = (index: number) => {
    setRows(rows.filter((_, i) => i !== index));
    setErrors((shown) => {
      const moved: FieldErrors = {};
      for (const [key, message] of Object.entries(shown)) {
        const [, list, at, column] = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(key) ?? [];
        const i = Number(at);
        if (list !== name) moved[key] = message;
        else if (i !== index) moved[`${name}[${i > index ? i - 1 : i}].${column}`] = message;
      }
      return moved;
    });
    element('-add')?.focus();
  };

  return (
    <fieldset className="mt-6 min-w-0">
      <legend className="text-lg font-bold">{title}</legend>
      {rows.map((row, index) => {
        const legend = fill(rowTitle, { n: index + 1 });
        return (
          <fieldset key={row.k} className="mt-3 min-w-0 rounded-lg border border-slate-300 p-4">
            <legend className="px-1 text-sm font-semibold">{legend}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {columns.map((column) => {
                const fieldId = `${id}-${row.k}-${column.name}`;
                const error = errors[`${name}[${index}].${column.name}`];
                const value = row.v[column.name] ?? '';
                const props = {
                  id: fieldId,
                  name: `${name}[${index}].${column.name}`,
                  value,
                  onChange: (event: { target: { value: string } }) => edit(index, column.name, event.target.value),
                  className: inputClass,
                  ...describedBy(fieldId, { error }),
                };
                return (
                  <Field key={column.name} id={fieldId} label={LABELS[column.name] ?? column.name} optional={!column.required} error={error}>
                    {column.name === 'kind' ? (
                      <select {...props}>
                        <option value="">{t('Choose...')}</option>
                        {/* A kind the CSV gave that is none of the list's stays, for the server's message to name. */}
                        {[...lossKinds, ...(value && !lossKinds.some((kind) => kind.value === value) ? [{ value, label: value }] : [])].map((kind) => (
                          <option key={kind.value} value={kind.value}>
                            {kind.label}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input {...props} type="text" autoComplete="off" maxLength={column.maxLength} inputMode={column.min === undefined ? undefined : 'numeric'} />
                    )}
                  </Field>
                );
              })}
            </div>
            <button type="button" onClick={() => remove(index)} className={buttonClass}>
              {t('Remove')}
              <span className="sr-only">{` ${legend}`}</span>
            </button>
          </fieldset>
        );
      })}
      <button id={`${id}-add`} type="button" onClick={() => add([{}])} className={buttonClass}>
        {addTitle}
      </button>
      <div className="mt-4">
        <RuleTextarea id={id} name={name} label={label} rule={rule} rows={3} optional hint={hint} error={errors[name]} invalid={errors[name]} />
        <button type="button" onClick={() => fromCsv((element() as HTMLTextAreaElement).value, element() as HTMLTextAreaElement)} className={buttonClass}>
          {t('Add the rows of the CSV')}
        </button>
      </div>
      <label htmlFor={`${id}-file`} className="mt-4 block text-sm font-semibold">
        {t('Or upload a .csv file')}
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".csv,text/csv"
        className="mt-1.5 block w-full max-w-full text-sm"
        onChange={(event) => {
          const input = event.currentTarget;
          void input.files?.[0]?.text().then((text) => {
            fromCsv(text, input);
            // Chosen again after a correction, the same file is read again.
            input.value = '';
          });
        }}
      />
    </fieldset>
  );
}
