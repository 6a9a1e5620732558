// A text's {placeholders} filled in from values: the one step of t() that every language shares.
export type Values = Record<string, string | number>;

export function fill(text: string, values?: Values): string {
  return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;
}
