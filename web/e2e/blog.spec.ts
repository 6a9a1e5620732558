// The blog list's search, category filter, featured card, empty state and shareable URL state; the post pages.
import { expect, test } from '@playwright/test';
import { hydrated } from './helpers';

const cards = (page: import('@playwright/test').Page) => page.locator('main article');

test('search matches titles and full text, case-insensitively, and is kept in the URL', async ({ page }) => {
  await page.goto('/blog');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Featured Article' })).toBeVisible();
  await expect(cards(page)).toHaveCount(6);

  const search = page.getByPlaceholder('Search articles...');
  await search.fill('WINTER');
  await expect(page.getByRole('heading', { name: 'Featured Article' })).toHaveCount(0);
  await expect(cards(page).first()).toContainText(/winter/i);
  await expect(page).toHaveURL(/[?&]q=WINTER/);

  // A phrase found only in a post's body, not in any title or excerpt.
  await search.fill('BMC-34');
  await expect(cards(page)).not.toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /Showing \d of 6 articles/ })).toBeVisible();

  await search.fill('zzzz no such words');
  await expect(page.getByRole('heading', { name: 'No articles found' })).toBeVisible();
  await expect(page.getByText('Try adjusting your search or category filter')).toBeVisible();
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(search).toHaveValue('');
  await expect(cards(page)).toHaveCount(6);
  await expect(page.getByRole('heading', { name: 'Featured Article' })).toBeVisible();
  await expect(page).toHaveURL(/\/blog$/);
});

test('category filter shows only that category and combines with search', async ({ page }) => {
  await page.goto('/blog');
  await hydrated(page);
  const safety = page.getByRole('button', { name: 'Safety', exact: true });
  await safety.click();
  await expect(safety).toHaveAttribute('aria-pressed', 'true');
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText('Safety');
  await expect(page).toHaveURL(/category=Safety/);

  await page.getByRole('button', { name: 'Industry News' }).click();
  await expect(page.getByRole('heading', { name: 'No articles found' })).toBeVisible();
  await page.getByRole('button', { name: 'All Categories' }).click();
  await expect(cards(page)).toHaveCount(6);
});

test('a shared filtered URL opens filtered', async ({ page }) => {
  await page.goto('/blog?category=Regulations&q=dot');
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Regulations' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByPlaceholder('Search articles...')).toHaveValue('dot');
  await expect(cards(page)).toHaveCount(1);
});

test('a post page reads as an article and links onward', async ({ page }) => {
  await page.goto('/blog');
  await cards(page).first().getByRole('link').click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
  await expect(page.getByRole('link', { name: 'Back to all articles' })).toHaveAttribute('href', '/blog');
  await expect(page.getByText('Insurance Specialist')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^(Related Articles|More from the Blog)$/ })).toBeVisible();
  const hero = page.locator('article img').first();
  await expect(hero).toHaveAttribute('width', '1200');
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('an unknown post shows the blog not-found page', async ({ page }) => {
  const response = await page.goto('/blog/no-such-post');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Blog Post Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Browse All Articles' }).click();
  await expect(page).toHaveURL(/\/blog$/);
});
