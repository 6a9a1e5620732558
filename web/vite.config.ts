// Vite builds the browser bundle (islands) and the server bundle that prerenders every page; `npm run dev` serves
// the pages rendered on request, with `/api` proxied to a running `truckins` binary.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { devPages } from './scripts/dev-pages.ts';
import { islandTexts } from './scripts/island-texts.ts';
import { table as spanishIslandTexts } from './src/i18n/es/islands.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The language being built (scripts/build.mjs builds each in turn): its content, its contract module, its words.
const spanish = process.env.TRUCKINS_LOCALE === 'es';
const contentJson = spanish
  ? (process.env.TRUCKINS_BUILD_CONTENT_ES ?? here('./.generated/content.es.json'))
  : (process.env.TRUCKINS_BUILD_CONTENT ?? here('./.generated/content.json'));

export default defineConfig(({ isSsrBuild }) => ({
  // The Spanish browser build: the islands' texts put in Spanish as they are built (scripts/island-texts.ts).
  plugins: [react(), tailwindcss(), devPages(), ...(spanish && !isSsrBuild ? [islandTexts(spanishIslandTexts)] : [])],
  resolve: {
    alias: {
      '@content': contentJson,
      '@contract': here(spanish ? './.generated/contract.es.ts' : './.generated/contract.ts'),
      '@content-types': here('./.generated/content-types.ts'),
      '@i18n': here(spanish ? './src/i18n/es' : './src/i18n/en'),
    },
  },
  build: {
    // Every asset is a file of its own: `data:` URLs would need a looser Content-Security-Policy.
    assetsInlineLimit: 0,
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      input: here('./src/client.ts'),
      // React in a chunk of its own, named so: only pages with islands load it (prerender.tsx, e2e tests).
      output: isSsrBuild ? {} : { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } },
    },
  },
  server: {
    fs: { allow: [here('..')] },
    proxy: { '/api': process.env.TRUCKINS_DEV_API ?? 'http://127.0.0.1:8000' },
  },
}));
