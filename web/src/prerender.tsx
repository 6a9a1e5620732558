// Renders pages to complete HTML documents: every route at build time (renderSite, called by scripts/build.mjs),
// or one path on request for the Vite dev server (renderPath). Only islands carry script; the rest is static HTML.
import { routes as addresses } from '@contract';
import { prerender } from 'react-dom/static';
// The favicon is served at /favicon.svg (a fixed address browsers ask for), so it is copied, not hashed.
import favicon from '../../content/images/favicon.svg?raw';
// The whole stylesheet as text (Tailwind-compiled and minified by Vite), inlined into every page's <head>: the first
// paint then needs the HTML alone, no second request. The browser bundle has no CSS at all.
import stylesheet from './styles.css?inline';
import { locale, otherLocale } from '@i18n/locale';
import { missingTexts as missingIslandTexts } from '@i18n/islands';
import { missingTexts as missingPageTexts } from '@i18n/pages';
import { site } from './content';
import { englishPath, pathIn } from './i18n/paths';
import { absoluteUrl } from './jsonld';
import { searchIndex, searchIndexPath } from './pages/BlogList';
import { errorRoutes, headProblems, routes, type Head, type Route } from './routes';
import { IslandCollector } from './ui/Island';
import type { IslandName } from './islands/registry';
import { Layout } from './widgets/Layout';

/** What a page links to besides itself: the client entry and the chunks the entry imports statically. */
export interface Assets {
  entry: string;
  preload: string[];
}

/** The exact text of every page's <style> element; scripts/build.mjs hands its hash to the server's CSP. */
export const inlineStyle = stylesheet;
if (/<\/style/i.test(inlineStyle)) throw new Error('The stylesheet contains "</style", which would end the inlined <style> early');

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

const ENTRY = 'src/client.ts';

export function assetsFromManifest(manifest: Record<string, ManifestChunk>): Assets {
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`Vite manifest has no ${ENTRY} entry`);
  if (entry.css?.length) throw new Error(`${ENTRY} imports CSS; the stylesheet is inlined by the prerender instead`);
  const chunkFiles = (key: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [`/${chunk.file}`, ...(chunk.imports ?? []).flatMap((k) => chunkFiles(k, seen))];
  };
  // Only what the entry itself imports. React and the islands' chunks are deliberately not preloaded: the entry
  // requests them after the first paint on pages with islands (client.ts), and a <link rel=modulepreload> would
  // fetch them at once, sharing a slow connection with the HTML that the first paint waits for.
  return { entry: `/${entry.file}`, preload: chunkFiles(ENTRY).slice(1) };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// JSON inside <script>: "<" escaped so no string in the content can close the element.
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

// The islands that post a form and report the outcome with toasts.
const FORM_ISLANDS: IslandName[] = ['QuoteForm', 'ContactForm', 'CoiForm', 'OptOutForm', 'ClaimForm', 'PolicyChangeForm'];

/** The page's body, and the islands in it (collected by this render alone). */
async function renderOnce(route: Route, toaster: boolean): Promise<{ body: string; islands: Set<IslandName> }> {
  const islands = new Set<IslandName>();
  const { prelude } = await prerender(
    <IslandCollector islands={islands}>
      <Layout path={route.path} languageSwitch={route.languageSwitch} toaster={toaster}>
        {route.render()}
      </Layout>
    </IslandCollector>,
  );
  const body = await new Response(prelude).text();
  return { body, islands };
}

async function renderBody(route: Route): Promise<string> {
  // The layout holds the Toaster, but only rendering the page tells whether it has a form: a page that turns out to
  // have one is rendered again with it (build time only, a few pages).
  const plain = await renderOnce(route, false);
  if (!FORM_ISLANDS.some((name) => plain.islands.has(name))) return plain.body;
  return (await renderOnce(route, true)).body;
}

/** The page in both languages, itself included, and the English one for any other language (`x-default`). */
function alternates(path: string): { hreflang: string; href: string }[] {
  const english = englishPath(path);
  return [
    { hreflang: 'en', href: absoluteUrl(pathIn('en', english)) },
    { hreflang: 'es', href: absoluteUrl(pathIn('es', english)) },
    { hreflang: 'x-default', href: absoluteUrl(pathIn('en', english)) },
  ];
}

function headHtml(head: Head, assets: Assets): string {
  const canonical = absoluteUrl(head.path);
  const lines = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    head.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    ...(head.noindex ? [] : alternates(head.path).map((a) => `<link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}">`)),
    `<meta property="og:type" content="${head.type ?? 'website'}">`,
    `<meta property="og:locale" content="${locale.ogLocale}">`,
    `<meta property="og:locale:alternate" content="${otherLocale.ogLocale}">`,
    `<meta property="og:site_name" content="${escapeHtml(site.brand)}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    head.noindex ? '' : `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    '<meta name="twitter:card" content="summary">',
    '<meta name="theme-color" content="#0b1f33">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    `<style>${inlineStyle}</style>`,
    `<script type="module" src="${assets.entry}"></script>`,
    ...assets.preload.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...(head.jsonLd ?? []).map((data) => `<script type="application/ld+json">${jsonForScript(data)}</script>`),
  ];
  return lines.filter(Boolean).join('\n');
}

export async function renderRoute(route: Route, assets: Assets): Promise<string> {
  const body = await renderBody(route);
  return `<!doctype html>\n<html lang="${locale.htmlLang}">\n<head>\n${headHtml(route.head, assets)}\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

/** Every page in both languages (each English content file has its Spanish, which crates/content checks, and the
 * pages' routes are the same in both builds; tests/integration/languages.rs fetches every one), each with its
 * alternates, as search engines read a site's languages from a sitemap. */
function sitemapXml(list: Route[]): string {
  const urls = list
    .filter((r) => r.sitemap)
    .flatMap((r) => {
      const lastmod = r.sitemap?.lastmod ? `<lastmod>${r.sitemap.lastmod}</lastmod>` : '';
      const links = alternates(r.path)
        .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}"/>`)
        .join('');
      return (['en', 'es'] as const).map((code) => `  <url><loc>${escapeHtml(absoluteUrl(pathIn(code, englishPath(r.path))))}</loc>${lastmod}${links}</url>`);
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Every file of the site that is not a Vite asset: HTML pages, error pages, sitemap, robots.txt, favicon. */
export async function renderSite(manifest: Record<string, ManifestChunk>): Promise<Record<string, string>> {
  const assets = assetsFromManifest(manifest);
  const list = routes();
  const misfits = headProblems([...list, ...errorRoutes()]);
  if (misfits.length > 0) {
    throw new Error(`${misfits.length} page(s) have a title or description that does not fit a search result:\n  - ${misfits.join('\n  - ')}`);
  }
  const files: Record<string, string> = {};
  for (const route of [...list, ...errorRoutes()]) {
    if (files[route.file]) throw new Error(`Two routes write ${route.file}`);
    files[route.file] = await renderRoute(route, assets);
  }
  const untranslated = [...missingPageTexts(), ...missingIslandTexts()];
  if (untranslated.length > 0) {
    throw new Error(`${untranslated.length} text(s) have no translation into ${locale.name}; add each to its file:\n  - ${untranslated.join('\n  - ')}`);
  }
  files[searchIndexPath().slice(1)] = searchIndex();
  // The files of the whole site, in the default language's build.
  if (locale.code === 'en') {
    files['sitemap.xml'] = sitemapXml(list);
    files['robots.txt'] = `User-agent: *\nAllow: /\n\nSitemap: ${site.base_url}/sitemap.xml\n`;
    files['favicon.svg'] = favicon;
  }
  return files;
}

/** For the dev server: the page at `path` with its status, rendered now. */
export async function renderPath(path: string, assets: Assets): Promise<{ status: number; html: string } | { text: string; type: string }> {
  if (path === searchIndexPath()) return { text: searchIndex(), type: 'application/json' };
  if (path === '/favicon.svg') return { text: favicon, type: 'image/svg+xml' };
  const route = routes().find((r) => r.path === path);
  if (route) return { status: 200, html: await renderRoute(route, assets) };
  const errors = errorRoutes();
  const direct = errors.find((r) => r.path === path && !r.file.startsWith('_'));
  if (direct) return { status: 200, html: await renderRoute(direct, assets) };
  const notFound = errors.find((r) => r.file === (path.startsWith(`${addresses.pages.blog}/`) ? addresses.errorPages.blogPostNotFound : addresses.errorPages.notFound))!;
  return { status: 404, html: await renderRoute(notFound, assets) };
}

