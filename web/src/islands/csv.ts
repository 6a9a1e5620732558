// A schedule pasted or uploaded as CSV, read in the browser: RFC 4180 (quoted cells, doubled quotes, commas and line
// breaks inside quotes, CRLF, a byte-order mark), the header line naming the list's columns in any order and case.
// The same refusals as the server's, in its words (crates/contract's schedules), said before anything is sent.
import { scheduleMessages, schedules } from '@contract';
import { t } from '@i18n/islands';

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

/** The lines of `text` as cells; blank lines are left out. */
export function readCsv(text: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let cell = '';
  let quoted = false;
  // One step past the end, where `c` is undefined, ends the last line.
  for (let i = text.startsWith('\uFEFF') ? 1 : 0; i <= text.length; i++) {
    const c = text[i];
    if (quoted && c !== undefined) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[i++];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      line.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r' || c === undefined) {
      if (c === '\r' && text[i + 1] === '\n') i++;
      line.push(cell);
      if (line.some((value) => value.trim())) lines.push(line);
      line = [];
      cell = '';
    } else cell += c;
  }
  return lines;
}

/** The rows of the CSV `text` for the list `name` (a line break in a quoted cell read as a space, as an input shows
 * it), or the message that says why it cannot be read. */
export function scheduleRows(name: ScheduleName, text: string): Row[] | string {
  const [header = [], ...lines] = readCsv(text);
  const columns = columnsOf(name);
  const names = header.map((cell) => cell.trim().toLowerCase());
  // Never a driver's licence number, even in a column the rows would leave out.
  if (names.includes(scheduleMessages.licenseNumberKey)) return scheduleMessages.licenseNumber;
  const known = (title: string) => columns.some((column) => column.name === title);
  if (!names.every(known) || columns.some((column) => column.required && !names.includes(column.name))) return schedules[name].badHeader;
  const long = lines.findIndex((cells) => cells.length > names.length);
  if (long >= 0) return t('Line {line}: {message}', { line: long + 2, message: scheduleMessages.rowUnreadable });
  return lines.map((cells) => Object.fromEntries(columns.map((column) => [column.name, cells[names.indexOf(column.name)]?.replace(/\s+/g, ' ').trim() ?? ''])));
}
