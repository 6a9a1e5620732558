// Shared by the browser tests: the site's pages (from its own sitemap) and a guard that fails a test on any
// console error or uncaught exception.
import { expect, type Page } from '@playwright/test';

export async function sitePaths(page: Page): Promise<string[]> {
  const response = await page.request.get('/sitemap.xml');
  expect(response.ok()).toBeTruthy();
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}

/** Collects console errors and page errors; call `check()` at the end of the test. */
export function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // A not-found page is itself a 404 and Chromium says so; any other failed resource is a real problem.
    const documentStatus = message.text().startsWith('Failed to load resource') && message.location().url === page.url();
    if (!documentStatus) problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { check: () => expect(problems, problems.join('\n')).toEqual([]) };
}

/** Waits until the page's script has done its work: the header menus enhanced and every island hydrated. */
export async function hydrated(page: Page) {
  await expect(page.locator('[data-site-nav][data-enhanced]')).toHaveCount(1);
  await expect(page.locator('[data-island]:not([data-hydrated])')).toHaveCount(0);
}
