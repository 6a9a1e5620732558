// The Spanish browser build's islands carry their texts already in Spanish: each `t('English', ...)` of a module
// that imports t from '@i18n/islands' becomes `t('Spanish', ...)` with t the bare placeholder filler (../src/i18n/
// fill.ts), so the table of every island's texts (src/i18n/es/islands.ts: some 4.5 KB compressed) is not shipped to
// every page with an island, each page carrying only the texts of its own islands. A text without its Spanish stops
// the build here, where a text shown only in the browser (a toast) could not be caught by the prerender's list. The
// prerender (server build) keeps the table's t(), whose output is the same.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const IMPORT = "import { t } from '@i18n/islands';";
const fill = fileURLToPath(new URL('../src/i18n/fill.ts', import.meta.url));
// t( then a quoted literal: islands write every text as one (checked below: no other t( is left).
const CALL = /(?<![\w.$])t\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g;

export function islandTexts(table: Record<string, string>): Plugin {
  return {
    name: 'truckins-island-texts',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!code.includes(IMPORT) || /[\\/]i18n[\\/]/.test(id)) return null;
      const missing: string[] = [];
      const out = code.replace(IMPORT, `import { fill as t } from ${JSON.stringify(fill)};`).replace(CALL, (whole, literal: string) => {
        const english = new Function(`return ${literal}`)() as string;
        const spanish = table[english];
        if (spanish === undefined) missing.push(JSON.stringify(english));
        return spanish === undefined ? whole : `t(${JSON.stringify(spanish)}`;
      });
      // Every t() must have been a literal: another would look its text up in a table that is not there.
      const left = out.match(/(?<![\w.$])t\((?!")/);
      if (missing.length > 0) this.error(`${id}: no Spanish in web/src/i18n/es/islands.ts for ${missing.join(', ')}`);
      if (left) this.error(`${id}: a t() whose text is not a literal: ${out.slice(left.index, left.index! + 60)}`);
      return { code: out, map: null };
    },
  };
}
