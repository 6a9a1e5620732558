// The home page in a real browser: the road canvas (moving, or still under reduced motion) and the FAQ accordion.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from './helpers';

const snapshot = (page: Page) =>
  page.getByTestId('road-canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());

test('the road canvas draws and moves', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const canvas = page.getByTestId('road-canvas');
  await expect(canvas).toHaveAttribute('aria-hidden', 'true');
  const size = await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
  expect(size[0]).toBeGreaterThan(100);
  expect(size[1]).toBeGreaterThan(100);
  const first = await snapshot(page);
  await expect.poll(() => snapshot(page), { timeout: 5000 }).not.toBe(first);
});

test('the road canvas holds still under prefers-reduced-motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // Playwright's clock, paused, drives the page's animation frames: a second of them is run, not waited for.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.goto('/');
  await hydrated(page);
  const first = await snapshot(page);
  await page.clock.runFor(1000);
  expect(await snapshot(page)).toBe(first);
  // It still shows the road, not an empty canvas.
  const blank = await page.getByTestId('road-canvas').evaluate((c: HTMLCanvasElement) => {
    const blankCanvas = document.createElement('canvas');
    blankCanvas.width = c.width;
    blankCanvas.height = c.height;
    return blankCanvas.toDataURL() === c.toDataURL();
  });
  expect(blank).toBe(false);
});

test('the FAQ keeps one answer open at a time', async ({ page }) => {
  await page.goto('/');
  const items = page.locator('details[name="home-faq"]');
  await expect(items).toHaveCount(4);
  await items.nth(0).locator('summary').click();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await items.nth(2).locator('summary').click();
  await expect(items.nth(2)).toHaveAttribute('open', '');
  await expect(items.nth(0)).not.toHaveAttribute('open', '');
  await items.nth(2).locator('summary').click();
  await expect(items.nth(2)).not.toHaveAttribute('open', '');
});

test('the home page works with JavaScript off', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Get Free Quote/ }).first()).toHaveAttribute('href', '/get-quote');
  await page.locator('details[name="home-faq"] summary').first().click();
  await expect(page.locator('details[name="home-faq"]').first()).toHaveAttribute('open', '');
  await context.close();
});
