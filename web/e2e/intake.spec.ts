// Issue 13 in a real browser, read back from the database through the real CLI (`truckins leads export`): the
// certificate of insurance request on /certificate-request with and without JavaScript (stored with every field,
// errors beside their fields), and "Speed up your quote" after a quote, in the island's thank-you state and on the
// no-JavaScript thank-you page whose address carries the quote's details token.
// Each test owns a unique e-mail address and looks only at the leads stored under it. Nothing waits a fixed time:
// the server's too-fast check is passed by moving the page's own clock on (Playwright's, installed before the page
// opens).
import { expect, test, type Page } from '@playwright/test';
import { hydrated, watchConsole } from './helpers';
import { formHydrated, leadsFor, movableClock, pastTooFast, uniqueEmail } from './leads';

/** A date `days` from today on this machine's calendar (the server's local date: it runs here too), YYYY-MM-DD. */
function localDate(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function fillCertificate(page: Page, email: string, neededBy: string) {
  const field = (name: string) => page.locator(`#coi-${name}`);
  await field('name').fill('Robin Hale');
  await field('email').fill(email);
  await field('phone').fill('555-210-0142');
  await field('insured_name').fill('Hale Freight LLC');
  await field('dot_number').fill('7654321');
  await field('certificate_holder').fill('Prairie Brokerage Inc.');
  await field('holder_address').fill('400 Grain Rd\nWichita, KS 67202');
  await field('additional_insured').check();
  await field('needed_by').fill(neededBy);
  await field('notes').fill('Please copy the holder.');
}

test.describe('the certificate request', () => {
  test('is linked from the footer and the contact page, and stored with every field', async ({ page }, info) => {
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'coi');
    await movableClock(page);
    await page.goto('/contact');
    await page.getByRole('link', { name: 'Request a certificate' }).click();
    await page.waitForURL((url) => url.pathname === '/certificate-request');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Certificate Request' })).toHaveAttribute('href', '/certificate-request');
    await hydrated(page);
    await formHydrated(page.locator('form[action="/api/leads/coi"]'));
    await fillCertificate(page, email, localDate(-1));
    await pastTooFast(page);
    // Checked before the 422 below, which Chromium reports on the console as a failed resource.
    console.check();
    const submit = page.getByRole('button', { name: 'Request Certificate' });
    await submit.click();
    // A date in the past: the message under the field, nothing stored.
    await expect(page.locator('#coi-needed_by-error')).toHaveText('Please enter a valid date that is today or later');
    await expect(page.locator('#coi-needed_by')).toBeFocused();
    expect(leadsFor(email)).toEqual([]);

    const neededBy = localDate(3);
    await page.locator('#coi-needed_by').fill(neededBy);
    await submit.click();
    await expect(page.getByRole('status').getByText('Certificate request received!', { exact: true })).toBeVisible();
    // The request's lasting confirmation takes the form's place, with focus.
    await expect(page.getByRole('heading', { name: 'Certificate request received', exact: true })).toBeFocused();
    await expect(page.locator('#coi-name')).toHaveCount(0);
    const leads = leadsFor(email);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({
      source: 'coi',
      name: 'Robin Hale',
      phone: '+15552100142',
      insured_name: 'Hale Freight LLC',
      dot_number: '7654321',
      certificate_holder: 'Prairie Brokerage Inc.',
      holder_address: '400 Grain Rd\nWichita, KS 67202',
      additional_insured: true,
      waiver_of_subrogation: false,
      needed_by: neededBy,
      notes: 'Please copy the holder.',
    });
  });

  test('is in the mobile menu', async ({ page }, info) => {
    test.skip(info.project.name !== 'phone', 'the menu button is the phone layout');
    await page.goto('/');
    await page.getByText('Menu', { exact: true }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Certificate Request' }).click();
    await page.waitForURL((url) => url.pathname === '/certificate-request');
  });

  test('without JavaScript comes back with the error and what was typed, then lands on its thank-you page', async ({ browser }, info) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'nojs-coi');
    await page.goto('/certificate-request');
    await fillCertificate(page, email, localDate(2));
    await page.locator('#coi-certificate_holder').fill('X');
    await page.getByRole('button', { name: 'Request Certificate' }).click();
    await expect(page.locator('#coi-certificate_holder-error')).toHaveText('Certificate holder must be at least 2 characters');
    await expect(page.locator('#coi-certificate_holder')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#coi-insured_name')).toHaveValue('Hale Freight LLC');
    await expect(page.locator('#coi-holder_address')).toHaveValue('400 Grain Rd\nWichita, KS 67202');
    await expect(page.locator('#coi-additional_insured')).toBeChecked();
    await expect(page.locator('#coi-needed_by')).toHaveValue(localDate(2));
    expect(leadsFor(email)).toEqual([]);

    await page.locator('#coi-certificate_holder').fill('Prairie Brokerage Inc.');
    await page.getByRole('button', { name: 'Request Certificate' }).click();
    await page.waitForURL((url) => url.pathname === '/certificate-request/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificate request received!');
    expect(leadsFor(email)).toHaveLength(1);
    expect(leadsFor(email)[0]).toMatchObject({ source: 'coi', certificate_holder: 'Prairie Brokerage Inc.', additional_insured: true, needed_by: localDate(2) });
    await context.close();
  });
});

async function fillQuote(page: Page, prefix: string, email: string) {
  const field = (name: string) => page.locator(`#${prefix}-${name}`);
  await field('name').fill('Sam Ortega');
  await field('email').fill(email);
  await field('company').fill('Ortega Flatbed LLC');
  await field('insurance_type').selectOption('liability');
  await field('vehicle_count').fill('4');
  await field('consent').check();
}

test.describe('speed up your quote', () => {
  test('after a quote the island offers the details form, and the details reach that lead', async ({ page }, info) => {
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'details');
    await movableClock(page);
    await page.goto('/get-quote');
    await hydrated(page);
    await formHydrated(page.locator('form:has(#page-quote-name)'));
    await fillQuote(page, 'page-quote', email);
    await pastTooFast(page);
    const quoted = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads/quote');
    await page.locator('form:has(#page-quote-name)').getByRole('button', { name: 'Get My Free Quote' }).click();
    expect((await quoted).status()).toBe(201);
    const details = page.locator('form:has(#page-quote-details-radius)');
    await expect(details.getByRole('heading', { name: 'Speed up your quote' })).toBeVisible();
    await page.locator('#page-quote-details-mc_number').fill('MC 445566');
    await page.locator('#page-quote-details-radius').selectOption('regional');
    await page.locator('#page-quote-details-operating_states').fill('tx, ok');
    await details.getByLabel('Machinery and large objects').check();
    await details.getByLabel('Other', { exact: true }).check();
    await page.locator('#page-quote-details-commodities_other').fill('Farm equipment');
    await page.locator('#page-quote-details-power_units').fill('4');
    await page.locator('#page-quote-details-best_time_to_call').selectOption('morning');
    const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads/details');
    await details.getByRole('button', { name: 'Send Details' }).click();
    expect((await sent).status()).toBe(200);
    await expect(page.getByRole('status').getByText('Details received!', { exact: true })).toBeVisible();
    await expect(details).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Details received', exact: true })).toBeFocused();
    const leads = leadsFor(email);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({
      source: 'quote',
      mc_number: '445566',
      radius: 'regional',
      operating_states: 'TX,OK',
      commodities: 'machinery,other',
      commodities_other: 'Farm equipment',
      power_units: 4,
      best_time_to_call: 'morning',
    });
    console.check();
  });

  test('without JavaScript the thank-you page carries the token and takes the details', async ({ browser }, info) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'nojs-details');
    await page.goto('/get-quote');
    await fillQuote(page, 'page-quote', email);
    await page.locator('form:has(#page-quote-name)').getByRole('button', { name: 'Get My Free Quote' }).click();
    await page.waitForURL((url) => url.pathname === '/get-quote/thank-you' && /^[0-9a-f]{32}$/.test(url.searchParams.get('details') ?? ''));
    await expect(page.getByRole('heading', { name: 'Speed up your quote' })).toBeVisible();
    await page.locator('#details-radius').selectOption('long_haul');
    await page.locator('#details-drivers').fill('3');
    await page.getByLabel('Refrigerated food').check();
    await page.getByLabel('Livestock').check();
    await page.locator('#details-operating_states').fill('TX, ZZ');
    await page.getByRole('button', { name: 'Send Details' }).click();
    // A mistake: the page again, with the message, the token and the choices kept.
    await expect(page.locator('#details-operating_states-error')).toHaveText('Operating states must be two-letter US state codes, such as TX, OK');
    await expect(page.locator('#details-radius')).toHaveValue('long_haul');
    await expect(page.getByLabel('Livestock')).toBeChecked();
    await page.locator('#details-operating_states').fill('TX, NM');
    await page.getByRole('button', { name: 'Send Details' }).click();
    await page.waitForURL((url) => url.pathname === '/get-quote/details-received');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Details received!');
    const leads = leadsFor(email);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ radius: 'long_haul', drivers: 3, operating_states: 'TX,NM', commodities: 'refrigerated,livestock' });
    await context.close();
  });
});
