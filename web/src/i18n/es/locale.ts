// Spanish (es-US): the pages below /es.
import type { LocaleInfo } from '../paths';

export const locale: LocaleInfo = { code: 'es', htmlLang: 'es', ogLocale: 'es_US', name: 'Español' };
/** The site's other language, the one the language switch leads to. */
export const otherLocale: LocaleInfo = { code: 'en', htmlLang: 'en', ogLocale: 'en_US', name: 'English' };

const months = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre',
  'noviembre', 'diciembre'];

/** "2026-03-14" as "14 de marzo de 2026". */
export function formatDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} de ${months[(month ?? 1) - 1]} de ${year}`;
}

/** "08:00" as "8:00 a. m." (the style of US Spanish). */
export function formatClock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const suffix = h < 12 ? 'a. m.' : 'p. m.';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}
