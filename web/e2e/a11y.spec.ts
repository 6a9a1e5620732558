// An axe scan (WCAG 2.1 A and AA) of every page in the sitemap (both languages) and of the not-found pages, at both sizes.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { hydrated, sitePaths } from './helpers';

test('every page passes axe with no violations', async ({ page }) => {
  const paths = [...(await sitePaths(page)), '/no-such-page', '/blog/no-such-post', '/es/no-such-page', '/es/blog/no-such-post'];
  // A bound per page, not for the whole list: a loaded machine slows every scan alike (about 1 s each when quiet).
  test.setTimeout(paths.length * 30_000);
  const failures: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await hydrated(page);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const violation of results.violations) {
      const targets = violation.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ');
      failures.push(`${path}: ${violation.id} (${violation.impact}): ${violation.help} -> ${targets}`);
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
});
