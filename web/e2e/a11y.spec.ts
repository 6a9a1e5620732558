// Every page in the sitemap (both languages), the pages a plain form post lands on, and the not-found pages, at both
// sizes, in one visit each: it answers with its status, hydrates its islands with no console errors, and passes an
// axe scan (WCAG 2.1 A and AA).
// The pages are split into parts, one test each, so that the suite's workers share them. axe is the suite's slowest
// step, so it scans every English page at desktop size, and one page of each kind (the home page, each page of its
// own, one product, the blog and one post, a not-found page) in Spanish and at phone size: the others are the same
// templates with other words. Every page is still visited at desktop size for its status and hydration.
// The parts share the scans evenly: the sitemap lists each English page before its Spanish one, so dealing the pages
// out in the sitemap's order gave every English page (all scanned at desktop size) to parts 1, 3 and 5, which took
// twice as long as the others and ended the suite alone on one worker.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { hydrated, sitePaths, watchConsole } from './helpers';

const NOT_FOUND = ['/no-such-page', '/blog/no-such-post', '/es/no-such-page', '/es/blog/no-such-post'];
/** Pages out of the sitemap that a visitor lands on after a plain form post (the opt-out's in both languages). */
const LANDINGS = [
  '/get-quote/thank-you',
  '/contact/thank-you',
  '/certificate-request/thank-you',
  '/report-a-claim/thank-you',
  '/policy-change/thank-you',
  '/es/report-a-claim/thank-you',
  '/es/policy-change/thank-you',
  '/opt-out/received',
  '/es/opt-out/received',
];
const PARTS = 6;

/** A page's kind: its template, whatever the language and whichever product or post. */
const kind = (path: string) =>
  path
    .replace(/^\/es(?=\/|$)/, '')
    .replace(/^\/(products|blog)\/[^/]+$/, '/$1/*')
    .replace(/^.*no-such.*$/, 'not found');

const isSpanish = (path: string) => /^\/es(\/|$)/.test(path);

function onePerKind(paths: string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((path) => !seen.has(kind(path)) && Boolean(seen.add(kind(path))));
}

for (let part = 0; part < PARTS; part++) {
  test(`every page, part ${part + 1} of ${PARTS}: hydrates with no console errors and passes axe`, async ({ page }, info) => {
    const listed = [...(await sitePaths(page)), ...LANDINGS, ...NOT_FOUND];
    const phone = info.project.name === 'phone';
    const all = phone ? onePerKind(listed) : listed;
    const scanned = new Set(phone ? all : [...listed.filter((path) => !isSpanish(path)), ...onePerKind(listed.filter(isSpanish))]);
    expect(all.length, 'the sitemap lists the pages').toBeGreaterThan(PARTS);
    // The scanned pages dealt out first, then the others: each part gets its share of both.
    const dealt = [...all.filter((path) => scanned.has(path)), ...all.filter((path) => !scanned.has(path))];
    const paths = dealt.filter((_, index) => index % PARTS === part);
    // A bound per page, not for the whole list: a loaded machine slows every scan alike (about 1 s each when quiet).
    test.setTimeout(paths.length * 30_000);
    const failures: string[] = [];
    for (const path of paths) {
      const consoleWatch = watchConsole(page);
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(NOT_FOUND.includes(path) ? 404 : 200);
      await hydrated(page);
      consoleWatch.check();
      await page.removeAllListeners('console');
      await page.removeAllListeners('pageerror');
      if (!scanned.has(path)) continue;
      // Only the violations are gathered: the passing nodes' details are what the suite never reads.
      const axe = new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .options({ resultTypes: ['violations'] });
      // By default the builder scans each frame apart and puts the results together in a new blank page that it
      // opens and loads axe into for every scan: 1.3-1.7 s a page here, against 0.4-0.8 s for axe.run in the page
      // itself (its legacy mode), which reported the same violations on pages with faults put in. The blank page is
      // for frames from other origins, which the site has none of; a page that ever has a frame is still scanned the
      // default way, frames and all.
      if (page.frames().length === 1) axe.setLegacyMode();
      const results = await axe.analyze();
      for (const violation of results.violations) {
        const targets = violation.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ');
        failures.push(`${path}: ${violation.id} (${violation.impact}): ${violation.help} -> ${targets}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
}
