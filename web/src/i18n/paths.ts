// The one mapping between the two languages' addresses, from the prefixes crates/contract/src/locale.rs states for
// the server too: a Spanish page has the English page's path behind /es, and `/` is `/es`.
import { localePrefixes } from '@contract';

export type LocaleCode = keyof typeof localePrefixes;

export interface LocaleInfo {
  code: LocaleCode;
  /** <html lang>, hreflang. */
  htmlLang: string;
  ogLocale: string;
  /** The language's name in itself, as the language switch shows it. */
  name: string;
}

const PREFIX: Record<LocaleCode, string> = localePrefixes;

/** The English path of a page of either language. */
export function englishPath(path: string): string {
  if (path === PREFIX.es) return '/';
  return path.startsWith(`${PREFIX.es}/`) ? path.slice(PREFIX.es.length) : path;
}

/** The page at the English `path` in `code`'s language. */
export function pathIn(code: LocaleCode, path: string): string {
  if (code === 'en') return path;
  return path === '/' ? PREFIX[code] : `${PREFIX[code]}${path}`;
}
