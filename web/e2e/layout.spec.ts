// The shared layout in a real browser (every page's hydration without console errors is in a11y.spec.ts): menus by mouse and keyboard (on /about, a
// page without React: the menus are <details> enhanced by plain script) and with JavaScript off, the mobile menu,
// tap-to-call, React loaded only where there are islands, the toast area and the copyright year.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from './helpers';

/** The next click follows no link, so a test can see what choosing a link does to the menu the link is in. */
async function holdNextNavigation(page: Page) {
  await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault(), { once: true }));
}

test('desktop menus open by keyboard, close on Escape and on choosing a link', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'desktop navigation');
  await page.goto('/about');
  await hydrated(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const summary = nav.locator('summary', { hasText: 'Vehicle Types' });
  await summary.focus();
  await page.keyboard.press('Enter');
  const dump = nav.getByRole('link', { name: 'Dump Truck', exact: true });
  await expect(dump).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Semi Truck' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dump).toBeHidden();
  await expect(summary).toBeFocused();

  // Only one menu open at a time.
  await summary.click();
  await expect(dump).toBeVisible();
  await nav.locator('summary', { hasText: 'Coverage Types' }).click();
  await expect(nav.getByRole('link', { name: 'Primary Liability' })).toBeVisible();
  await expect(dump).toBeHidden();
  await page.mouse.move(640, 700);
  await expect(nav.getByRole('link', { name: 'Primary Liability' })).toBeHidden();

  // An outside click closes a menu (opened by keyboard here: the mouse leaving a menu closes it too).
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(dump).toBeVisible();
  await page.locator('footer').click({ position: { x: 5, y: 5 } });
  await expect(dump).toBeHidden();

  // Choosing a link closes the menu.
  await summary.click();
  await expect(dump).toBeVisible();
  await holdNextNavigation(page);
  await dump.click();
  await expect(dump).toBeHidden();
  await expect(page).toHaveURL(/\/about$/);

  // Focus leaving a menu closes it.
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(dump).toBeVisible();
  await nav.getByRole('link', { name: 'Semi Truck' }).focus();
  await nav.getByRole('link', { name: 'About', exact: true }).focus();
  await expect(dump).toBeHidden();
});

test('the mobile menu opens, closes on Escape and on choosing a link', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'phone navigation');
  await page.goto('/about');
  await hydrated(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  const call = page.getByRole('link', { name: /^Call us at/ });
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute('href', /^tel:\+\d+$/);

  const toggle = page.locator('summary', { hasText: 'Menu' });
  const panel = page.getByRole('navigation', { name: 'Mobile' });
  // The summary shows a menu icon while closed and a close icon while open.
  await expect(toggle.locator('.nav-icon-closed')).toBeVisible();
  await expect(toggle.locator('.nav-icon-open')).toBeHidden();
  await toggle.click();
  await expect(panel).toBeVisible();
  await expect(toggle.locator('.nav-icon-open')).toBeVisible();
  await expect(toggle.locator('.nav-icon-closed')).toBeHidden();
  // The panel fills the screen below the header, every link in it reachable.
  const viewport = page.viewportSize()!;
  const header = (await page.locator('header').first().boundingBox())!;
  const box = (await panel.boundingBox())!;
  expect(box.y).toBeCloseTo(header.y + header.height, -1);
  expect(box.y + box.height, 'the panel reaches the bottom of the screen').toBeGreaterThanOrEqual(viewport.height - 1);
  await panel.getByRole('link', { name: 'Get Quote' }).scrollIntoViewIfNeeded();
  await expect(panel.getByRole('link', { name: 'Get Quote' })).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(toggle).toBeFocused();

  // Choosing a link closes the panel (seen with the navigation held back), and following one works.
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await holdNextNavigation(page);
  await panel.getByRole('link', { name: 'Contact' }).click();
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(/\/about$/);
  await toggle.click();
  await expect(panel).toBeVisible();
  await panel.getByRole('link', { name: 'Blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
});

test('with JavaScript off, the menus open as plain HTML and their links work', async ({ browser }, info) => {
  const phone = info.project.name === 'phone';
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    hasTouch: phone,
    baseURL: info.project.use.baseURL,
  });
  const page = await context.newPage();
  await page.goto('/about');
  if (phone) {
    const panel = page.getByRole('navigation', { name: 'Mobile' });
    await expect(panel).toBeHidden();
    await page.locator('summary', { hasText: 'Menu' }).click();
    await expect(panel).toBeVisible();
    await expect(page.locator('summary', { hasText: 'Menu' }).locator('.nav-icon-open')).toBeVisible();
    await panel.getByRole('link', { name: 'Dump Truck' }).click();
  } else {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.locator('summary', { hasText: 'Coverage Types' }).click();
    await expect(nav.getByRole('link', { name: 'Primary Liability' })).toBeVisible();
    // One open at a time is the platform's (<details name>), so it holds without script too.
    await nav.locator('summary', { hasText: 'Vehicle Types' }).click();
    await expect(nav.getByRole('link', { name: 'Primary Liability' })).toBeHidden();
    await nav.getByRole('link', { name: 'Dump Truck', exact: true }).click();
  }
  await expect(page).toHaveURL(/\/products\/dump-truck-insurance$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.close();
});

test('React is loaded only on pages with islands', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const react = /^\/assets\/(react|hydrate)-[\w-]+\.js$/;

  // A page with a form loads React, by the name this test looks for.
  await page.goto('/get-quote');
  await hydrated(page);
  expect(scripts.filter((path) => react.test(path)), scripts.join(', ')).toHaveLength(2);

  // A page without islands: the menus are enhanced, the page is fully loaded, and no React was asked for.
  scripts.length = 0;
  await page.goto('/about', { waitUntil: 'load' });
  await hydrated(page);
  await expect(page.locator('[data-island]')).toHaveCount(0);
  expect(scripts.length, 'the entry script').toBeGreaterThan(0);
  expect(scripts.filter((path) => react.test(path)), scripts.join(', ')).toEqual([]);
  // Nor a notification area: only forms show toasts.
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the header stays in view while scrolling', async ({ page }) => {
  await page.goto('/');
  await page.mouse.wheel(0, 3000);
  await expect(page.locator('header').first()).toBeInViewport();
});

test('toasts are shown one at a time, the newest replacing the one on screen, and can be dismissed', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.evaluate(() => {
    const send = (title: string, variant: string) =>
      window.dispatchEvent(new CustomEvent('truckins:toast', { detail: { title, description: 'details', variant } }));
    send('First notice', 'success');
    send('Second notice', 'destructive');
  });
  // The newest at once, announced as an error; the older one is gone, not waiting behind it.
  await expect(page.getByRole('alert').getByText('Second notice')).toBeVisible();
  await expect(page.getByText('First notice')).toHaveCount(0);
  await expect(page.locator('.toast')).toHaveCount(1);
  await page.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(page.locator('.toast')).toHaveCount(0);
});

test('the copyright year is the year the page is viewed', async ({ page }) => {
  await page.clock.setFixedTime(new Date('2031-06-01T12:00:00Z'));
  await page.goto('/');
  await expect(page.locator('[data-current-year]')).toHaveText('2031');
});

test('a mouse pointing at a desktop menu opens it, and clicking its button keeps it open', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'desktop navigation');
  await page.goto('/about');
  await hydrated(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.locator('summary', { hasText: 'Coverage Types' }).hover();
  await expect(nav.getByRole('link', { name: 'Cargo' })).toBeVisible();
  await nav.locator('summary', { hasText: 'Coverage Types' }).click();
  await expect(nav.getByRole('link', { name: 'Cargo' })).toBeVisible();
  // Pointing at the other menu opens it and closes the first.
  await nav.locator('summary', { hasText: 'Vehicle Types' }).hover();
  await expect(nav.getByRole('link', { name: 'Dump Truck', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Cargo' })).toBeHidden();
  await page.mouse.move(640, 700);
  await expect(nav.getByRole('link', { name: 'Dump Truck', exact: true })).toBeHidden();
});

test('tabbing out of the open mobile menu closes it', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'phone navigation');
  await page.goto('/about');
  await hydrated(page);
  const panel = page.getByRole('navigation', { name: 'Mobile' });
  await page.locator('summary', { hasText: 'Menu' }).click();
  await expect(panel).toBeVisible();
  await panel.getByRole('link').last().focus();
  await page.keyboard.press('Tab');
  await expect(panel).toBeHidden();
});

// Both languages, one test each (they share the workers): the Spanish words are longer or shorter, the header's room
// is the same.
const HEADER_LANGUAGES = [
  { home: '/', nav: 'Main', items: ['Vehicle Types', 'Coverage Types', 'About', 'Blog', 'Contact', 'Get Quote'] },
  { home: '/es', nav: 'Principal', items: ['Vehículos', 'Coberturas', 'Nosotros', 'Blog', 'Contacto', 'Cotizar'] },
] as const;

for (const language of HEADER_LANGUAGES) test(`from 768 px up the header holds every link on one line and the page never scrolls sideways (${language.home})`, async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'desktop widths');
  for (const width of [768, 900, 1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(language.home);
    await hydrated(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `sideways overflow at ${width} px on ${language.home}`).toBeLessThanOrEqual(0);
    const nav = page.getByRole('navigation', { name: language.nav });
    const items = language.items.map((name) => nav.getByText(name, { exact: true }));
    for (const [index, item] of items.entries()) await expect(item, `${language.items[index]} at ${width} px`).toBeInViewport({ ratio: 1 });
    // One line each: every item as tall as a single line of its text, all on one row. Measured in one call for all
    // the items (a call each for its line height and its box made this the suite's longest test, near its timeout on
    // a loaded machine).
    const measured = await items.reduce((all, item) => all.or(item)).evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { text: element.textContent?.trim() ?? '', height: box.height, middle: box.y + box.height / 2, lineHeight: parseFloat(getComputedStyle(element).lineHeight) };
      }),
    );
    expect(measured.map((item) => item.text).sort(), `the items, once each, at ${width} px`).toEqual([...language.items].sort());
    for (const item of measured) expect(item.height, `${item.text} wraps at ${width} px`).toBeLessThan(item.lineHeight * 1.5 + 20);
    const rows = measured.map((item) => Math.round(item.middle));
    expect(Math.max(...rows) - Math.min(...rows), `items on one row at ${width} px`).toBeLessThanOrEqual(2);
    // The phone is always one click away in the header.
    const call = nav.getByRole('link', { name: /Call us at|Llámenos al|\(\d{3}\)/ }).filter({ visible: true });
    // So is the other language.
    await expect(nav.locator('a[data-language-switch]'), `the language switch at ${width} px`).toBeInViewport({ ratio: 1 });
    await expect(call, `a phone link at ${width} px`).toHaveCount(1);
    await expect(call).toHaveAttribute('href', /^tel:\+\d+$/);
  }
});
