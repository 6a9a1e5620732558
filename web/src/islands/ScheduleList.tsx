// One schedule of the details form with JavaScript (vehicles, drivers or losses): its rows as fieldsets of labelled
// inputs a fleet edits, adds and removes, filled from a pasted CSV (the textarea the form has without JavaScript)
// or an uploaded .csv file. The rows live in DetailsForm, which sends them as a JSON list; the server's errors on a
// row (`vehicle_schedule[1].vin`, the row sent second) show beside its input, kept by the row's key rather than its
// place (rows come and go), the list's own beside the textarea.
import { lossKinds, schedules } from '@contract';
import { t } from '@i18n/islands';
import { useRef, type Dispatch, type SetStateAction } from 'react';
import { flushSync } from 'react-dom';
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
/** A row's input's name and error key: `vehicle_schedule[#3].vin` for the row of key 3. */
export const rowField = (name: string, key: number, column: string) => `${name}[#${key}].${column}`;

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
  setRows: (update: (rows: KeyedRow[]) => KeyedRow[]) => void;
  errors: FieldErrors;
  setErrors: Dispatch<SetStateAction<FieldErrors>>;
}

export function ScheduleList({ name, id, label, hint, rule, rows, setRows, errors, setErrors }: ScheduleListProps) {
  const columns = columnsOf(name);
  const { maxRows, tooMany } = schedules[name];
  const [title, rowTitle, addTitle] = NOUNS[name];
  // The rows as last rendered, for a .csv read after the event that chose it.
  const shown = useRef(rows);
  shown.current = rows;
  const element = (suffix = '') => document.getElementById(id + suffix);
  const focusRow = (key?: number) => (element(`-${key}-${columns[0]!.name}`) ?? element('-add'))?.focus();
  // The list's own message, set or cleared (the rows' stay); rendered before focus moves, so that the field focused
  // is read with its message and marked invalid.
  const listError = (message?: string) =>
    flushSync(() => setErrors(({ [name]: _, ...rest }) => (message ? { ...rest, [name]: message } : rest)));
  // A list's refusal, said beside its textarea, which takes focus (and so is read with it).
  const refuse = (message: string) => {
    listError(message);
    element()?.focus();
  };
  // New rows after those filled in (an empty row added and left so goes), focus on the first one's first input;
  // whether they were added.
  const add = (more: Row[], dropEmpty = false) => {
    const drop = (all: KeyedRow[]) => (dropEmpty ? all.filter(filledIn) : all);
    if (drop(shown.current).length + more.length > maxRows) return refuse(tooMany);
    const added = more.map(keyed);
    listError();
    flushSync(() => setRows((all) => [...drop(all), ...added]));
    focusRow(added[0]!.k);
    return true;
  };
  const fromCsv = (text: string, source: HTMLInputElement | HTMLTextAreaElement) => {
    const read = scheduleRows(name, text);
    if (typeof read === 'string') refuse(read);
    // A header alone is said, rather than nothing happening.
    else if (read.length === 0) refuse(t('No rows under the header line.'));
    // The text goes once its rows are shown (kept when they would be too many).
    else if (add(read, true)) source.value = '';
  };
  const edit = (key: number, column: string, value: string) =>
    setRows((all) => all.map((row) => (row.k === key ? { ...row, v: { ...row.v, [column]: value } } : row)));
  // Focus goes to the row that takes the removed one's place (the one before it if it was last; else "Add").
  // Errors are kept by the rows' keys: those of the others stay where they are.
  const remove = (index: number) => {
    flushSync(() => setRows((all) => all.filter((_, i) => i !== index)));
    focusRow((rows[index + 1] ?? rows[index - 1])?.k);
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
                // Named by the row's key (DetailsForm maps the server's `list[1].vin` to the row it sent second).
                const fieldName = rowField(name, row.k, column.name);
                const error = errors[fieldName];
                const value = row.v[column.name] ?? '';
                // A date typed as text (a date picker is slow for a birth date): its format said beside it.
                const date = column.name.startsWith('date');
                const props = {
                  id: fieldId,
                  name: fieldName,
                  value,
                  onChange: (event: { target: { value: string } }) => edit(row.k, column.name, event.target.value),
                  className: inputClass,
                  ...describedBy(fieldId, { hint: date, error }),
                };
                return (
                  <Field key={column.name} id={fieldId} label={LABELS[column.name] ?? column.name} optional={!column.required} hint={date ? t('YYYY-MM-DD') : undefined} error={error}>
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
          input.files?.[0]?.text().then(
            (text) => {
              fromCsv(text, input);
              // Chosen again after a correction, the same file is read again.
              input.value = '';
            },
            () => refuse(t('This file could not be read.')),
          );
        }}
      />
    </fieldset>
  );
}
