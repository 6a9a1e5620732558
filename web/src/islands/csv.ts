// A schedule pasted or uploaded as CSV, read in the browser as the server reads it (src/leads/validate/csv.rs and
// schedules.rs): RFC 4180 (quoted cells, doubled quotes, commas and line breaks inside quotes, CRLF, a byte-order
// mark), a quote opening a quoted cell only at a cell's start (`72" sleeper` is kept as typed), text after a closing
// quote or a quote never closed making its record unreadable; the header naming the list's columns once each, in any
// order and case; blank rows skipped but counted, so "Row 2" is the server's row 2. The same refusals as the
// server's, in its words (crates/contract's schedules), said before anything is sent.
import { scheduleMessages, schedules } from '@contract';
import { fill } from '../i18n/fill';

export type ScheduleName = keyof typeof schedules;
/** A row: column name -> what was typed. */
export type Row = Record<string, string>;
export interface Column {
  name: string;
  required: boolean;
  maxLength?: number;
  min?: number;
}

export const columnsOf = (name: ScheduleName): readonly Column[] => schedules[name].columns;

/** The records of `text`: each its cells as written, or null where it cannot be read. */
export function readCsv(text: string): (string[] | null)[] {
  const records: (string[] | null)[] = [];
  let cells: string[] = [];
  let cell = '';
  // Inside a quoted cell; just after its closing quote; anything written in this record yet; readable.
  let quoted = false;
  let closed = false;
  let started = false;
  let ok = true;
  const end = () => {
    cells.push(cell);
    records.push(ok ? cells : null);
    cells = [];
    cell = '';
    ok = true;
    closed = started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[i++];
      else [quoted, closed] = [false, true];
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
      closed = false;
      started = true;
    } else if (c === '\r' && text[i + 1] === '\n') {
      // CRLF: the LF ends the record.
    } else if (c === '\r' || c === '\n') end();
    else if (c === '"' && !closed && !cell.trim()) {
      cell = '';
      quoted = started = true;
    } else if (closed) ok &&= c === ' ' || c === '\t';
    else {
      cell += c;
      started = true;
    }
  }
  // A quote never closed: where its cell ends is anyone's guess.
  if (quoted) ok = false;
  if (started || cell || !ok) end();
  return records;
}

const blank = (cells: string[] | null) => cells?.every((cell) => !cell.trim());

/** The rows of the CSV `text` for the list `name` (a line break in a quoted cell read as a space, as an input shows
 * it), or the message that says why it cannot be read. */
export function scheduleRows(name: ScheduleName, text: string): Row[] | string {
  // The server trims the text (a byte-order mark with it) and skips blank lines before the header.
  const records = readCsv(text.trim());
  while (records.length > 0 && blank(records[0]!)) records.shift();
  const [header, ...lines] = records;
  if (header === undefined) return [];
  const columns = columnsOf(name);
  const names = header?.map((cell) => cell.trim().toLowerCase()) ?? [];
  // Never a driver's licence number, even in a column the rows would leave out.
  if (names.includes(scheduleMessages.licenseNumberKey)) return scheduleMessages.licenseNumber;
  const known = (title: string, at: number) => columns.some((column) => column.name === title) && names.indexOf(title) === at;
  if (!header || !names.every(known) || columns.some((column) => column.required && !names.includes(column.name))) return schedules[name].badHeader;
  // A cell past the header's may be there if blank (a trailing comma).
  const bad = lines.findIndex((cells) => !cells || cells.slice(names.length).some((cell) => cell.trim()));
  if (bad >= 0) return fill(scheduleMessages.row, { row: bad + 1, message: scheduleMessages.rowUnreadable });
  return lines
    .filter((cells) => !blank(cells))
    .map((cells) => Object.fromEntries(columns.map((column) => [column.name, cells![names.indexOf(column.name)]?.replace(/\s+/g, ' ').trim() ?? ''])));
}
