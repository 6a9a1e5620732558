// The Spanish of the texts that islands show (shipped to the browser with the Spanish islands: only these).
import { translator } from './translate';

const table: Record<string, string> = {
};

export const { t, missingTexts } = translator(table, 'web/src/i18n/es/islands.ts');
