// The status links of the agency's e-mail (issue 26), as the agency's staff meet them on a phone or a desktop: the
// link's page shows the lead and changes nothing; the button, reached and pressed with the keyboard, makes the change;
// the page passes axe, fits 320 px without sideways scrolling, and runs no script. The link is signed here as the
// server signs it (HMAC-SHA256 with the key the server made and keeps in the suite's database, read with Python's
// sqlite3), which is what the e-mail
// would carry; the e-mail itself is read in the Rust tests (tests/integration/status_links.rs).
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { database } from '../playwright.config';
import { leadsFor, uniqueEmail } from './leads';

/** The status links' key as the server keeps it, in its database (src/status/key.rs). */
function storedKey(): string {
  const read = "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM installation_keys WHERE name = 'status_links'\").fetchone()[0])";
  return execFileSync('python3', ['-c', read, database], { encoding: 'utf8' }).trim();
}

/** The path of the link moving lead `id` to `status`, valid for 30 days from now. */
function link(id: number, status: string): string {
  const key = Buffer.from(storedKey(), 'hex');
  const until = Math.floor(Date.now() / 1000) + 30 * 86_400;
  const signature = createHmac('sha256', key).update(`lead-status\n${id}\n${status}\n${until}`).digest('hex').slice(0, 32);
  return `/lead-status/${id}/${status}?until=${until}&sig=${signature}`;
}

test('a status link shows the lead, changes nothing until its button is pressed with the keyboard, then says so', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'desktop', 'the test sets the page to 320 px itself: once is enough');
  const email = uniqueEmail(info, 'status');
  const quote = await request.post('/api/leads/quote', {
    data: { name: 'Maria Lopez', email, phone: '(214) 555-0142', company: 'Lopez & Sons Hauling', insurance_type: 'hotshot', vehicle_count: 2, consent: true },
  });
  expect(quote.status()).toBe(201);
  const { id } = (await quote.json()) as { id: number };
  const scripts: string[] = [];
  page.on('request', (sent) => {
    if (sent.resourceType() === 'script') scripts.push(sent.url());
  });

  await page.setViewportSize({ width: 320, height: 640 });
  const contacted = link(id, 'contacted');
  const response = await page.goto(contacted);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mark as Contacted?');
  await expect(page.getByText('Maria Lopez', { exact: true })).toBeVisible();
  expect(leadsFor(email)[0]?.status, 'opening the link changes nothing').toBe('new');
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling at 320 px').toBeLessThanOrEqual(320);
  const scan = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(scan.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  // Keyboard only: the button is the first thing Tab reaches, its focus is visible, Enter presses it.
  await page.keyboard.press('Tab');
  const button = page.getByRole('button', { name: 'Mark as Contacted' });
  await expect(button).toBeFocused();
  const outline = await button.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline, 'a visible focus outline').not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Marked as Contacted');
  await expect(page.getByRole('status')).toContainText('moved from New to Contacted');
  expect(leadsFor(email)[0]?.status).toBe('contacted');

  // Back to the link (a second click in the e-mail): it says it was used, and offers no button.
  await page.goto(contacted);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link was already used');
  await expect(page.getByRole('button')).toHaveCount(0);
  expect(scripts, 'scripts the pages loaded').toEqual([]);
});
