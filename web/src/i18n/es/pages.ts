// The Spanish of the texts that pages, widgets and routes write (server-side only: never shipped to a browser).
import { translator } from './translate';

const table: Record<string, string> = {
};

export const { t, missingTexts } = translator(table, 'web/src/i18n/es/pages.ts');
