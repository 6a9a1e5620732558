// English: the site's default language, at the root of the site.
import type { LocaleInfo } from '../paths';

export const locale: LocaleInfo = { code: 'en', htmlLang: 'en', ogLocale: 'en_US', name: 'English' };
/** The site's other language, the one the language switch leads to. */
export const otherLocale: LocaleInfo = { code: 'es', htmlLang: 'es', ogLocale: 'es_US', name: 'Español' };

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];

/** "2026-03-14" as "March 14, 2026" (no Intl: the same text on every machine that builds). */
export function formatDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${months[(month ?? 1) - 1]} ${day}, ${year}`;
}

/** "08:00" as "8:00 AM". */
export function formatClock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const suffix = h < 12 ? 'AM' : 'PM';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}
