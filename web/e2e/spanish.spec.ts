// The site in Spanish (issue 15) in a real browser: the language switch between a page and its counterpart, the
// blog's search and categories in Spanish, and the quote and contact forms below /es end to end, with and without
// JavaScript: the server's errors in Spanish, the lead stored with its language and the Spanish consent, word for
// word as the form showed it.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { hydrated, watchConsole } from './helpers';
import { formHydrated, leadsFor, movableClock, pastTooFast, uniqueEmail } from './leads';

/** content/es/forms.toml's consent text and version, the agency's legal name from content/facts.toml filled in:
 * what a Spanish quote must store. */
function spanishConsent(): { text: string; version: string } {
  const read = (file: string) => readFileSync(new URL(`../../content/${file}`, import.meta.url), 'utf8');
  const value = (toml: string, key: string) => JSON.parse(toml.match(new RegExp(`^${key} = (".*")$`, 'm'))![1]!) as string;
  const [forms, facts] = [read('es/forms.toml'), read('facts.toml')];
  return { text: value(forms, 'consent_text').replace('{legal_name}', value(facts, 'legal_name')), version: value(forms, 'consent_version') };
}

const NAME_ERROR_ES = 'El nombre solo puede contener letras, espacios, guiones y apóstrofos';
const MESSAGE_ERROR_ES = 'El mensaje debe tener al menos 10 caracteres';

async function fillQuote(page: Page, prefix: string, email: string, name: string) {
  const field = (id: string) => page.locator(`#${prefix}-${id}`);
  await field('name').fill(name);
  await field('email').fill(email);
  await field('phone').fill('(555) 210-0142');
  await field('insurance_type').selectOption('hotshot');
  await field('vehicle_count').fill('2');
  await field('consent').check();
}

function expectSpanishQuote(email: string, name: string) {
  const leads = leadsFor(email);
  expect(leads, `leads stored for ${email}`).toHaveLength(1);
  const consent = spanishConsent();
  expect(leads[0]).toMatchObject({ source: 'quote', name, language: 'es', consent_given: true, consent_text: consent.text });
  // The version stored: es/forms.toml's, and the short hash of the words as shown (they name the agency's facts).
  expect(leads[0]!.consent_version).toMatch(new RegExp(`^${consent.version}\\+[0-9a-f]{8}$`));
}

/** Follows the header's language switch; on a phone it is in the menu, which is opened first. */
async function switchLanguage(page: Page) {
  const visible = page.locator('a[data-language-switch]').filter({ visible: true });
  if ((await visible.count()) === 0) await page.locator('details:has(> nav) > summary').click();
  await visible.first().click();
}

test('the language switch leads to the same page in the other language and back', async ({ page }) => {
  const console = watchConsole(page);
  await page.goto('/products/hotshot-insurance');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await switchLanguage(page);
  await expect(page).toHaveURL(/\/es\/products\/hotshot-insurance$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', /\/products\/hotshot-insurance$/);
  await switchLanguage(page);
  await expect(page).toHaveURL(/\/products\/hotshot-insurance$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  console.check();
});

test('the Spanish blog filters by Spanish category and searches without minding accents', async ({ page }) => {
  await page.goto('/es/blog');
  await hydrated(page);
  const cards = page.locator('article');
  const all = await cards.count();
  await page.getByRole('button', { name: 'Regulaciones', exact: true }).click();
  await expect(page).toHaveURL(/category=Regulaciones/);
  await expect.poll(() => cards.count()).toBeLessThan(all);
  await page.getByRole('button', { name: 'Todas las categorías', exact: true }).click();
  await expect(cards).toHaveCount(all);
  // "bitácora" is in one post only, always with its accent: the search without it finds that post alone, as the
  // search with it does.
  await page.getByRole('searchbox').fill('bitácora');
  await expect(cards).toHaveCount(1);
  const accented = await cards.first().locator('h2, h3').first().textContent();
  await page.getByRole('searchbox').fill('bitacora');
  await expect(cards).toHaveCount(1);
  await expect(cards.first().locator('h2, h3').first()).toHaveText(accented!);
});

test.describe('with JavaScript', () => {
  test('a Spanish quote gets the server error in Spanish, then is stored with its language and the Spanish consent', async ({ page }, info) => {
    const email = uniqueEmail(info, 'es-quote');
    await movableClock(page);
    await page.goto('/es/get-quote');
    await hydrated(page);
    await formHydrated(page.locator('form:has(#page-quote-name)'));
    // The consent shown is the Spanish text that will be stored.
    await expect(page.locator('form:has(#page-quote-name)')).toContainText(spanishConsent().text);
    await fillQuote(page, 'page-quote', email, 'Ruta 66 Transportes');
    await pastTooFast(page);
    await page.locator('form:has(#page-quote-name) button[type="submit"]').click();
    await expect(page.getByText(NAME_ERROR_ES, { exact: true }).first()).toBeVisible();
    expect(leadsFor(email)).toEqual([]);

    await page.locator('#page-quote-name').fill('Dana Ruiz');
    await page.locator('form:has(#page-quote-name) button[type="submit"]').click();
    await expect(page.locator('.toast[data-variant="success"]')).toBeVisible();
    await expect(page.locator('.toast[data-variant="success"]')).not.toContainText('submitted');
    await expect(page.getByRole('heading', { name: 'Solicitud recibida', exact: true })).toBeFocused();
    expectSpanishQuote(email, 'Dana Ruiz');
  });

  test('a Spanish message is stored with its language', async ({ page }, info) => {
    const email = uniqueEmail(info, 'es-contact');
    await movableClock(page);
    await page.goto('/es/contact');
    await hydrated(page);
    await formHydrated(page.locator('form:has(#contact-name)'));
    await page.locator('#contact-name').fill('Rosa Mendoza');
    await page.locator('#contact-email').fill(email);
    await page.locator('#contact-subject').fill('Póliza para mi tráiler');
    await page.locator('#contact-message').fill('Corto');
    await pastTooFast(page);
    await page.locator('form:has(#contact-name) button[type="submit"]').click();
    await expect(page.locator('#contact-message-error')).toHaveText(MESSAGE_ERROR_ES);
    await page.locator('#contact-message').fill('Necesito una cotización para un tráiler refrigerado, por favor llámeme.');
    await page.locator('form:has(#contact-name) button[type="submit"]').click();
    await expect(page.locator('.toast[data-variant="success"]')).toBeVisible();
    await expect.poll(() => leadsFor(email).length).toBe(1);
    expect(leadsFor(email)[0]).toMatchObject({ source: 'contact', language: 'es' });
  });
});

test.describe('without JavaScript', () => {
  test('a Spanish quote gets the Spanish correction page, then the Spanish thank-you page', async ({ browser }, info) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'es-nojs-quote');
    await page.goto('/es/get-quote');
    await fillQuote(page, 'page-quote', email, 'Ruta 66 Transportes');
    await page.locator('form:has(#page-quote-name) button[type="submit"]').click();
    await expect(page.locator('#correction-name-error')).toHaveText(NAME_ERROR_ES);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.locator('#correction-email')).toHaveValue(email);
    expect(leadsFor(email)).toEqual([]);

    await page.locator('#correction-name').fill('Dana Ruiz');
    await page.locator('form:has(#correction-name) button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/es/get-quote/thank-you');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Solicitud de cotización enviada!');
    expectSpanishQuote(email, 'Dana Ruiz');
    await context.close();
  });

  test('a Spanish message gets its error in Spanish, then the Spanish thank-you page', async ({ browser }, info) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'es-nojs-contact');
    await page.goto('/es/contact');
    await page.locator('#contact-name').fill('Rosa Mendoza');
    await page.locator('#contact-email').fill(email);
    await page.locator('#contact-subject').fill('Póliza para mi tráiler');
    await page.locator('#contact-message').fill('Corto');
    await page.locator('form:has(#contact-name) button[type="submit"]').click();
    await expect(page.locator('#contact-message-error')).toHaveText(MESSAGE_ERROR_ES);
    await expect(page.locator('#contact-subject')).toHaveValue('Póliza para mi tráiler');
    await page.locator('#contact-message').fill('Necesito una cotización para un tráiler refrigerado, por favor llámeme.');
    await page.locator('form:has(#contact-name) button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/es/contact/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Recibimos su mensaje!');
    expect(leadsFor(email)).toMatchObject([{ source: 'contact', language: 'es' }]);
    await context.close();
  });
});
