// The Spanish build's t(): a text's Spanish from a table, with its {placeholders} filled in. At build time (the
// prerender) a text missing from the table is recorded, and the build stops listing them all; in a browser, which
// only runs islands already rendered at build time, the English is shown rather than nothing.
import { fill, type Values } from '../fill';

export function translator(table: Record<string, string>, file: string) {
  const missing = new Set<string>();
  const t = (text: string, values?: Values): string => {
    const spanish = table[text];
    if (spanish === undefined) missing.add(`${file}: ${JSON.stringify(text)}`);
    return fill(spanish ?? text, values);
  };
  return { t, missingTexts: () => [...missing] };
}
