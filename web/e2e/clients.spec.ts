// Issue 28 in a real browser, read back from the database through the real CLI (`truckins leads export`): the first
// notice of loss on /report-a-claim and the policy change request on /policy-change, each with and without
// JavaScript and in both languages: filled in, refused with the message beside its field (a claim dated in the
// future, a VIN whose check digit is wrong, an effective date in the past), put right, then taken: the island's
// confirmation (with the claim's reference), or the thank-you page a plain post lands on. Also: with JavaScript the
// change form shows only the chosen kind's section, without it every section.
// The form's script and the server are the same at both sizes: these run at desktop size only. Each test owns a
// unique e-mail address and looks only at the leads stored under it; nothing waits a fixed time (the server's
// too-fast check is passed by moving the page's own clock on).
import { expect, test, type Page } from '@playwright/test';
import { hydrated, watchConsole } from './helpers';
import { formHydrated, leadsFor, movableClock, pastTooFast, uniqueEmail } from './leads';

/** A date `days` from today on this machine's calendar (the server's, which runs here too), YYYY-MM-DD. */
function localDate(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A VIN with its check digit right (the standard's worked example), and the same with the 9th character wrong. */
const VIN = '1M8GDM9AXKP042788';
const VIN_WRONG_CHECK_DIGIT = '1M8GDM9A1KP042788';

/** What each language's pages say, where the tests read them. */
const LANGUAGES = [
  {
    code: 'en',
    prefix: '',
    claimSubmit: 'Send Claim Report',
    claimReceived: 'Claim report received',
    claimFuture: 'The date of the loss cannot be in the future',
    claimShort: 'Please describe what happened in at least 10 characters',
    changeSubmit: 'Send Change Request',
    changeReceived: 'Change request received',
    addVehicle: 'Add a vehicle',
    addDriver: 'Add a driver',
    wrongCheckDigit: "This VIN's check digit (the 9th character) does not match the others: please check each character",
    pastEffective: 'The effective date cannot be in the past',
    notInForce: 'No change is in force until we confirm it to you.',
    licenseByPhone: "For your driver's safety, we never ask for a license number online: we will ask for it by phone.",
    reference: 'Your reference:',
  },
  {
    code: 'es',
    prefix: '/es',
    claimSubmit: 'Enviar reporte de siniestro',
    claimReceived: 'Reporte de siniestro recibido',
    claimFuture: 'La fecha del siniestro no puede ser una fecha futura',
    claimShort: 'Describa lo que pasó en al menos 10 caracteres',
    changeSubmit: 'Enviar solicitud de cambio',
    changeReceived: 'Solicitud de cambio recibida',
    addVehicle: 'Agregar un vehículo',
    addDriver: 'Agregar un chofer',
    wrongCheckDigit: 'El dígito de control de este VIN (el 9.º carácter) no corresponde a los demás: revise cada carácter',
    pastEffective: 'La fecha de vigencia no puede ser una fecha pasada',
    notInForce: 'Ningún cambio está vigente hasta que se lo confirmemos.',
    licenseByPhone: 'Por la seguridad de su chofer, nunca pedimos un número de licencia por internet: se lo pediremos por teléfono.',
    reference: 'Su número de referencia:',
  },
] as const;

async function fillClaim(page: Page, email: string, lossDate: string) {
  const field = (name: string) => page.locator(`#claim-${name}`);
  await field('name').fill('Ray Dominguez');
  await field('phone').fill('(555) 210-0177');
  await field('email').fill(email);
  await field('loss_date').fill(lossDate);
  await field('loss_time').fill('06:45');
  await field('loss_city').fill('Waco');
  await field('loss_state').fill('TX');
  await field('what_happened').fill('Rear-ended at a stop on I-35 southbound; the trailer doors and bumper are damaged.');
  await field('injuries-no').check();
  await field('towed-no').check();
  await field('police_report_number').fill('WPD-2611-0042');
  await field('insured_name').fill('Dominguez Freight LLC');
  await field('policy_number').fill('TX-CA-123456-01');
  await field('insurer').selectOption('great-plains-mutual');
  await field('vehicles_involved').fill('Unit 12');
}

async function fillChangeCommon(page: Page, email: string, effective: string) {
  const field = (name: string) => page.locator(`#change-${name}`);
  await field('effective_date').fill(effective);
  await field('policy_number').fill('TX-CA-123456-01');
  await field('insured_name').fill('Hale Freight LLC');
  await field('name').fill('Robin Hale');
  await field('phone').fill('(555) 210-0142');
  await field('email').fill(email);
}

for (const language of LANGUAGES) {
  test.describe(`in ${language.code === 'en' ? 'English' : 'Spanish'}`, () => {
    // Skipped before the test's page is made.
    test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'the same at both sizes: run once, at desktop size'));

    test('a claim with JavaScript: a future date refused beside its field, then the reference', async ({ page }, info) => {
      const console = watchConsole(page);
      const email = uniqueEmail(info, `claim-${language.code}`);
      await movableClock(page);
      await page.goto(`${language.prefix}/report-a-claim`);
      await hydrated(page);
      await formHydrated(page.locator('form[action="/api/leads/claim"]'));
      // The insurers' claims lines before the form, each a phone link.
      await expect(page.locator('a[href="tel:+15550100177"]').first()).toBeVisible();
      await fillClaim(page, email, localDate(2));
      await pastTooFast(page);
      // Checked before the 422 below, which Chromium reports on the console as a failed resource.
      console.check();
      const submit = page.getByRole('button', { name: language.claimSubmit });
      await submit.click();
      await expect(page.locator('#claim-loss_date-error')).toHaveText(language.claimFuture);
      await expect(page.locator('#claim-loss_date')).toBeFocused();
      await expect(page.locator('#claim-loss_date')).toHaveAttribute('aria-invalid', 'true');
      expect(leadsFor(email)).toEqual([]);

      const lossDate = localDate(-1);
      await page.locator('#claim-loss_date').fill(lossDate);
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads/claim');
      await submit.click();
      const body = (await (await answered).json()) as { reference?: string };
      expect(body.reference, 'the API answers a reference').toBeTruthy();
      await expect(page.getByRole('heading', { name: language.claimReceived, exact: true })).toBeFocused();
      await expect(page.getByText(language.reference)).toContainText(body.reference!);
      await expect(page.locator('#claim-name')).toHaveCount(0);
      const leads = leadsFor(email);
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({ source: 'claim', name: 'Ray Dominguez', language: language.code });
    });

    test('a policy change with JavaScript: one kind at a time, a wrong VIN and a past date refused beside their fields', async ({ page }, info) => {
      const email = uniqueEmail(info, `change-${language.code}`);
      await movableClock(page);
      await page.goto(`${language.prefix}/policy-change`);
      await hydrated(page);
      const form = page.locator('form[action="/api/leads/change"]');
      await formHydrated(form);
      // Before a kind is chosen no kind's section shows; then only the chosen kind's.
      await expect(page.locator('#change-vin')).toBeHidden();
      await form.getByLabel(language.addDriver, { exact: true }).check();
      await expect(page.locator('#change-driver_name')).toBeVisible();
      await expect(form.getByText(language.licenseByPhone)).toBeVisible();
      await expect(page.locator('#change-vin')).toBeHidden();
      await form.getByLabel(language.addVehicle, { exact: true }).check();
      await expect(page.locator('#change-driver_name')).toBeHidden();
      await expect(page.locator('#change-trailer_vin')).toBeHidden();
      await expect(page.locator('#change-vin')).toHaveAttribute('required', '');
      await page.locator('#change-vehicle_year').fill('2022');
      await page.locator('#change-vehicle_make').fill('Freightliner');
      await page.locator('#change-vehicle_model').fill('Cascadia');
      await page.locator('#change-vin').fill(VIN_WRONG_CHECK_DIGIT);
      await page.locator('#change-stated_value').fill('85000');
      await page.locator('#change-garaging_zip').fill('76106');
      await fillChangeCommon(page, email, localDate(-2));
      await pastTooFast(page);
      const submit = page.getByRole('button', { name: language.changeSubmit });
      await submit.click();
      await expect(page.locator('#change-vin-error')).toHaveText(language.wrongCheckDigit);
      await expect(page.locator('#change-effective_date-error')).toHaveText(language.pastEffective);
      await expect(page.locator('#change-vin')).toBeFocused();
      expect(leadsFor(email)).toEqual([]);

      await page.locator('#change-vin').fill(VIN);
      // The date picker offers what the server takes: today to a year ahead.
      const effective = page.locator('#change-effective_date');
      await expect(effective).toHaveAttribute('max', new RegExp(`^${new Date().getFullYear() + 1}-`));
      await effective.fill(localDate(1));
      await submit.click();
      await expect(page.getByRole('heading', { name: language.changeReceived, exact: true })).toBeFocused();
      await expect(page.getByRole('region', { name: language.changeReceived }).getByText(language.notInForce)).toBeVisible();
      const leads = leadsFor(email);
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({ source: 'change', name: 'Robin Hale', language: language.code });
    });

    test('a claim without JavaScript: the correction page keeps what was typed, then the thank-you page', async ({ browser }, info) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const email = uniqueEmail(info, `nojs-claim-${language.code}`);
      await page.goto(`${language.prefix}/report-a-claim`);
      await fillClaim(page, email, localDate(3));
      await page.locator('#claim-what_happened').fill('Dented');
      await page.getByRole('button', { name: language.claimSubmit }).click();
      await expect(page.locator('#claim-what_happened-error')).toHaveText(language.claimShort);
      await expect(page.locator('#claim-loss_date-error')).toHaveText(language.claimFuture);
      await expect(page.locator('#claim-what_happened')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#claim-loss_city')).toHaveValue('Waco');
      await expect(page.locator('#claim-insurer')).toHaveValue('great-plains-mutual');
      await expect(page.locator('#claim-injuries-no')).toBeChecked();
      expect(leadsFor(email)).toEqual([]);

      await page.locator('#claim-what_happened').fill('Rear-ended at a stop on I-35; the trailer doors are damaged.');
      // Yesterday: today on this machine's clock can still be tomorrow on every US clock (the server's rule).
      await page.locator('#claim-loss_date').fill(localDate(-1));
      await page.getByRole('button', { name: language.claimSubmit }).click();
      await page.waitForURL((url) => url.pathname === `${language.prefix}/report-a-claim/thank-you`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(language.claimReceived);
      // The reference the server gave, filled in from the address it sent the browser to.
      await expect(page.getByText(language.reference)).toContainText(/CLM-\d{6}/);
      await expect(page.locator('main a[href="tel:+15550100142"]')).toBeVisible();
      expect(leadsFor(email)).toMatchObject([{ source: 'claim', language: language.code }]);
      await context.close();
    });

    test('a policy change without JavaScript: every section shows, the chosen kind is kept, then the thank-you page', async ({ browser }, info) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const email = uniqueEmail(info, `nojs-change-${language.code}`);
      await page.goto(`${language.prefix}/policy-change`);
      for (const name of ['vin', 'trailer_vin', 'driver_name', 'new_address', 'lienholder_name']) await expect(page.locator(`#change-${name}`)).toBeVisible();
      await page.getByLabel(language.addDriver, { exact: true }).check();
      await page.locator('#change-driver_name').fill('Luis Ortega');
      await page.locator('#change-driver_date_of_birth').fill('1984-05-12');
      await page.locator('#change-license_state').fill('TX');
      await page.locator('#change-license_class-A').check();
      // Today or before: a hire date after the agency's today is refused.
      await page.locator('#change-hire_date').fill(localDate(-7));
      // Another kind's section filled in too: the server reads only the chosen kind's.
      await page.locator('#change-vin').fill(VIN_WRONG_CHECK_DIGIT);
      await fillChangeCommon(page, email, localDate(-3));
      await page.getByRole('button', { name: language.changeSubmit }).click();
      await expect(page.locator('#change-effective_date-error')).toHaveText(language.pastEffective);
      await expect(page.locator('#change-vin-error')).toBeEmpty();
      await expect(page.getByLabel(language.addDriver, { exact: true })).toBeChecked();
      await expect(page.locator('#change-license_class-A')).toBeChecked();
      await expect(page.locator('#change-driver_name')).toHaveValue('Luis Ortega');
      expect(leadsFor(email)).toEqual([]);

      await page.locator('#change-effective_date').fill(localDate(1));
      await page.getByRole('button', { name: language.changeSubmit }).click();
      await page.waitForURL((url) => url.pathname === `${language.prefix}/policy-change/thank-you`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(language.changeReceived);
      await expect(page.getByText(language.notInForce)).toBeVisible();
      await expect(page.getByText(language.reference)).toContainText(/CHG-\d{6}/);
      expect(leadsFor(email)).toMatchObject([{ source: 'change', language: language.code }]);
      await context.close();
    });
  });
}

test('the clients pages are in the footer and on the contact page, in both languages', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'the same at both sizes: run once, at desktop size');
  await page.goto('/contact');
  await page.getByRole('main').getByRole('link', { name: 'Report a claim' }).click();
  await page.waitForURL((url) => url.pathname === '/report-a-claim');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Policy Change' })).toHaveAttribute('href', '/policy-change');
  await page.goto('/es');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Reportar un siniestro' })).toHaveAttribute('href', '/es/report-a-claim');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Cambio de póliza' })).toHaveAttribute('href', '/es/policy-change');
});

test('the clients pages are in the mobile menu, under For Clients', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'the menu button is the phone layout');
  await page.goto('/es');
  await page.getByText('Menú', { exact: true }).click();
  const menu = page.getByRole('navigation', { name: 'Móvil' });
  await expect(menu.getByRole('link', { name: 'Cambio de póliza' })).toHaveAttribute('href', '/es/policy-change');
  await menu.getByRole('link', { name: 'Reportar un siniestro' }).click();
  await page.waitForURL((url) => url.pathname === '/es/report-a-claim');
});
