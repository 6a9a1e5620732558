// Issue 39 in a real browser: a fleet's vehicles and driver pasted as CSV into "Speed up your quote", at 320 px and
// with the keyboard alone (Tab, Enter, Space and typing; never a click): the rows appear as fieldsets of labelled
// inputs (vehicles, then drivers, then losses), a wrong VIN comes back from the server beside that row's VIN input
// (marked, described, focused) and stays beside it when a row before it is removed, the corrected lists are sent and
// stored with the quote (read back through the real CLI), axe finds nothing with the rows shown nor with the row's
// error, and nothing scrolls sideways. Then the loss runs ("Loss runs and other documents"): with JavaScript the
// files chosen are checked, posted one after another and listed with their final state, without it a plain form
// with the token posts one.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { hydrated, watchConsole } from './helpers';
import { formHydrated, leadsFor, movableClock, pastTooFast, uniqueEmail } from './leads';
import { fillQuote, quoteForm, sidewaysOverflow } from './wcag-helpers';

test.use({ viewport: { width: 320, height: 640 } });

const FIRST_VIN = '1M8GDM9AXKP042788';
// Check digit 3 (ISO 3779); the same VIN with a 5 there is refused.
const SECOND_VIN = '1FUJGLDR3CLBP8834';
const WRONG_VIN = '1FUJGLDR5CLBP8834';
const THIRD_VIN = '3AKJHHDR5LSLA1234';

/** Presses Tab (or `key`) until `target` has focus, at most `limit` times, as a keyboard user reaches a field. */
async function tabTo(page: Page, target: Locator, limit = 40, key = 'Tab') {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${target}`);
}

/** axe's WCAG 2.x A and AA rules on the page as it is now: the violations, one line each. */
async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} -> ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function noSidewaysScroll(page: Page, when: string) {
  const overflow = await sidewaysOverflow(page);
  expect(overflow.scrollWidth, `${when}: scrolls sideways at 320 px; past the edge: ${overflow.offenders.join('; ')}`).toBe(overflow.clientWidth);
}

/** A list as the export writes it: a JSON array, or its text. */
function listOf(lead: Record<string, unknown>, name: string): Record<string, unknown>[] {
  const value = lead[name];
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[];
}

test('two vehicles and a driver pasted as CSV at 320 px, keyboard only: rows, a row error beside its VIN, stored', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'one width (320 px) is the point; the desktop project would repeat it');
  const console = watchConsole(page);
  const email = uniqueEmail(info, 'schedules');
  await movableClock(page);
  await page.goto('/get-quote');
  await hydrated(page);
  const quote = page.locator('form:has(#page-quote-name)');
  await formHydrated(quote);

  // The quote, by keyboard.
  const field = (name: string) => page.locator(`#page-quote-${name}`);
  for (const [name, typed] of [
    ['name', 'Dana Ruiz'],
    ['email', email],
    ['company', 'Red River Haulers LLC'],
    ['insurance_type', 'Hot'],
    ['vehicle_count', '2'],
  ] as const) {
    await tabTo(page, field(name));
    await page.keyboard.type(typed);
  }
  await expect(field('insurance_type')).toHaveValue('hotshot');
  await tabTo(page, field('consent'));
  await page.keyboard.press('Space');
  await expect(field('consent')).toBeChecked();
  await pastTooFast(page);
  await tabTo(page, quote.getByRole('button', { name: 'Get My Free Quote' }));
  const quoted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/quote');
  await page.keyboard.press('Enter');
  expect((await quoted).status()).toBe(201);

  // The vehicles pasted (a wrong check digit in the second VIN), then the driver.
  const details = page.getByRole('form', { name: 'Speed up your quote' });
  await expect(details).toBeVisible();
  const d = (name: string) => page.locator(`#page-quote-details-${name}`);
  await tabTo(page, d('vehicle_schedule'));
  // A quote inside a cell (72") is kept as typed, as the server reads it; a trailing comma is a blank extra cell.
  await page.keyboard.type(
    `year,make,model,vin,stated_value,garaging_zip\n2019,Freightliner,Cascadia,${FIRST_VIN},85000,75201\n"2012","Freightliner","Cascadia, day cab",${WRONG_VIN},42000,75201\n2020,Kenworth,T680 72" sleeper,${THIRD_VIN},120000,75201,`,
  );
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveText('Add the rows of the CSV');
  await page.keyboard.press('Enter');
  const vehicles = details.getByRole('group', { name: 'Vehicles', exact: true });
  const vehicle = (n: number) => vehicles.getByRole('group', { name: `Vehicle ${n}`, exact: true });
  await expect(vehicle(1)).toBeVisible();
  await expect(vehicle(3).getByLabel('Model')).toHaveValue('T680 72" sleeper');
  await expect(vehicle(4)).toHaveCount(0);
  await expect(vehicle(1).getByLabel('VIN')).toHaveValue(FIRST_VIN);
  await expect(vehicle(2).getByLabel('Model')).toHaveValue('Cascadia, day cab');
  await expect(vehicle(2).getByLabel('VIN')).toHaveValue(WRONG_VIN);
  // The rows took the text: the textarea is empty again, and focus is on the first row's first input.
  await expect(d('vehicle_schedule')).toHaveValue('');
  await expect(vehicle(1).getByLabel('Year')).toBeFocused();

  // Vehicles, drivers, losses, in that order; the drivers reached forward from the first vehicle's year.
  await expect(details.locator('fieldset > legend.text-lg')).toHaveText(['Vehicles', 'Drivers', 'Losses in the last 10 years']);
  await tabTo(page, d('driver_schedule'));
  await page.keyboard.type('Name,Date_of_Birth,License_State,Years_Experience\nMaria Lopez,1985-04-12,TX,12');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const driver = details.getByRole('group', { name: 'Driver 1', exact: true });
  await expect(driver.getByLabel('Name')).toHaveValue('Maria Lopez');
  await expect(driver.getByLabel('License state')).toHaveValue('TX');
  await noSidewaysScroll(page, 'the rows shown');
  expect(await axeViolations(page), 'axe with the rows shown').toEqual([]);
  // Checked before the 422 below, which Chromium reports on the console as a failed resource.
  console.check();

  // Sent: the server names the second vehicle's VIN; its message is beside that input, which is marked and focused.
  await tabTo(page, details.getByRole('button', { name: 'Send Details' }));
  let sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/details');
  await page.keyboard.press('Enter');
  expect((await sent).status()).toBe(422);
  const wrongVin = vehicle(2).getByLabel('VIN');
  await expect(wrongVin).toHaveAttribute('aria-invalid', 'true');
  await expect(wrongVin).toHaveAccessibleDescription(/check digit/i);
  await expect(vehicle(2).locator('[id$="-vin-error"]')).toContainText(/check digit/i);
  await expect(wrongVin).toBeFocused();
  await expect(vehicle(1).getByLabel('VIN')).not.toHaveAttribute('aria-invalid', 'true');
  await noSidewaysScroll(page, 'a row error shown');
  expect(await axeViolations(page), 'axe with a row error shown').toEqual([]);

  // The first vehicle removed: the error stays beside the VIN it was about (now the first vehicle's), and focus goes
  // to the row that took the removed one's place.
  await tabTo(page, vehicle(1).getByRole('button', { name: 'Remove Vehicle 1' }), 10, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(vehicle(3)).toHaveCount(0);
  await expect(vehicle(1).getByLabel('Year')).toBeFocused();
  await expect(vehicle(1).getByLabel('VIN')).toHaveValue(WRONG_VIN);
  await expect(vehicle(1).getByLabel('VIN')).toHaveAccessibleDescription(/check digit/i);
  await expect(vehicle(2).getByLabel('VIN')).not.toHaveAttribute('aria-invalid', 'true');

  // Put right, and sent again.
  await tabTo(page, vehicle(1).getByLabel('VIN'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type(SECOND_VIN);
  await tabTo(page, details.getByRole('button', { name: 'Send Details' }));
  sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/details');
  await page.keyboard.press('Enter');
  expect((await sent).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Details received', exact: true })).toBeFocused();
  await noSidewaysScroll(page, 'the details received');

  const [lead] = leadsFor(email);
  expect(lead, 'the quote is stored').toBeDefined();
  expect(listOf(lead!, 'vehicle_schedule')).toMatchObject([
    { year: 2012, make: 'Freightliner', model: 'Cascadia, day cab', vin: SECOND_VIN, stated_value: 42000, garaging_zip: '75201' },
    { year: 2020, make: 'Kenworth', model: 'T680 72" sleeper', vin: THIRD_VIN, stated_value: 120000, garaging_zip: '75201' },
  ]);
  expect(listOf(lead!, 'driver_schedule')).toMatchObject([{ name: 'Maria Lopez', date_of_birth: '1985-04-12', license_state: 'TX', years_experience: 12 }]);
});

test('a .csv file uploaded: RFC 4180 quoting, CRLF and a byte-order mark read; a license number column refused', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'one width (320 px) is the point; the desktop project would repeat it');
  await movableClock(page);
  await page.goto('/get-quote');
  await hydrated(page);
  const { form, submit } = quoteForm(page, 'page-quote');
  await formHydrated(form);
  await fillQuote(page, 'page-quote', uniqueEmail(info, 'csv-file'), { consent: true });
  await pastTooFast(page);
  await submit.click();
  const details = page.getByRole('form', { name: 'Speed up your quote' });
  const losses = details.getByRole('group', { name: 'Losses in the last 10 years', exact: true });
  const csv = '\uFEFFAmount,Kind,Date,Description\r\n"12,500",cargo,2023-05-10,"Load ""shifted"",\r\nin transit"\r\n\r\n900,other,2024-01-02,\r\n';
  await losses.getByLabel('Or upload a .csv file').setInputFiles({ name: 'losses.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const loss = (n: number) => losses.getByRole('group', { name: `Loss ${n}`, exact: true });
  await expect(loss(1).getByLabel('Amount ($)')).toHaveValue('12,500');
  // Focus on the first new row's first input, its date's format said beside it.
  await expect(loss(1).getByLabel('Date')).toBeFocused();
  await expect(loss(1).getByLabel('Date')).toHaveAccessibleDescription('YYYY-MM-DD');
  await expect(loss(1).getByLabel('Kind')).toHaveValue('cargo');
  await expect(loss(1).getByLabel('Date')).toHaveValue('2023-05-10');
  await expect(loss(1).getByLabel('Description')).toHaveValue('Load "shifted", in transit');
  await expect(loss(2).getByLabel('Amount ($)')).toHaveValue('900');
  await expect(loss(3)).toHaveCount(0);

  // A quote that opens a cell and text after its closing quote: the row cannot be read, numbered as the server
  // numbers it (the blank line before it keeps its place), and no row is added.
  const lossesText = page.locator('#page-quote-details-loss_history');
  await losses.getByLabel('Or upload a .csv file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('date,kind,amount\n\n"2024-01-02" x,cargo,5\n') });
  await expect(lossesText).toHaveAccessibleDescription(/Row 2: /);
  await expect(lossesText).toBeFocused();
  await expect(loss(3)).toHaveCount(0);
  // A header alone is said too.
  await losses.getByLabel('Or upload a .csv file').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('date,kind,amount\n') });
  await expect(lossesText).toHaveAccessibleDescription(/No rows under the header line/);

  const drivers = details.getByRole('group', { name: 'Drivers', exact: true });
  await drivers.getByLabel('Or upload a .csv file').setInputFiles({
    name: 'drivers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,date_of_birth,license_state,License_Number\nMaria Lopez,1985-04-12,TX,L1234567\n'),
  });
  const textarea = page.locator('#page-quote-details-driver_schedule');
  await expect(textarea).toHaveAccessibleDescription(/never take a license number online/);
  await expect(textarea).toHaveAttribute('aria-invalid', 'true');
  await expect(textarea).toBeFocused();
});

// The loss runs: the chosen files posted one after another (the server takes 2 uploads a client at a time) and each
// listed with its final state, a program named .pdf refused in the server's words beside its name, a file over
// 10 MB refused in the browser without a request; without JavaScript a plain form posts one, and the page says it
// arrived.
const PDF = { name: 'loss-runs.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n') };
const PDF_2023 = { ...PDF, name: 'loss-runs-2023.pdf' };
const PNG = { name: 'declarations.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex') };
const PROGRAM = { name: 'tool.pdf', mimeType: 'application/pdf', buffer: Buffer.from('\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0', 'latin1') };
const HUGE = { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF.buffer, Buffer.alloc(10 * 1024 * 1024)]) };

test('documents with JavaScript: three files all received one after another, a program named .pdf and a file over 10 MB refused', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'one width (320 px) is the point; the desktop project would repeat it');
  const email = uniqueEmail(info, 'documents');
  await movableClock(page);
  await page.goto('/get-quote');
  await hydrated(page);
  const { form, submit } = quoteForm(page, 'page-quote');
  await formHydrated(form);
  await fillQuote(page, 'page-quote', email, { consent: true });
  await pastTooFast(page);
  await submit.click();
  const documents = page.getByRole('form', { name: 'Loss runs and other documents' });
  await expect(documents).toBeVisible();
  const input = documents.getByLabel('Files to send');
  await expect(input).toHaveAccessibleDescription(/up to 10 MB each/);
  // Posts counted as they start, and how many are on their way at once.
  let posts = 0;
  let open = 0;
  let most = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname !== '/api/leads/documents') return;
    posts += 1;
    most = Math.max(most, ++open);
  });
  const settled = (r: { url: () => string }) => {
    if (new URL(r.url()).pathname === '/api/leads/documents') open -= 1;
  };
  page.on('response', settled);
  page.on('requestfailed', settled);
  await input.setInputFiles([PDF, PDF_2023, PNG]);
  const list = documents.getByRole('list');
  await expect(list).toHaveAttribute('aria-live', 'polite');
  const item = (name: string) => list.getByRole('listitem').filter({ hasText: name });
  for (const name of [PDF.name, PDF_2023.name, PNG.name]) await expect(item(name)).toHaveText(`${name}: Received`);
  // The live list holds final states only; the one on its way is said outside it.
  await expect(list).not.toContainText('Uploading');
  expect(posts).toBe(3);
  expect(most).toBe(1);

  await input.setInputFiles([HUGE, PROGRAM]);
  await expect(item(PROGRAM.name)).toHaveText(/^tool\.pdf: Please send a PDF, JPEG or PNG file/);
  await expect(item(HUGE.name)).toHaveText(/^scan\.pdf: A document can be at most 10 MB/);
  expect(posts, 'the file over 10 MB is refused without a request').toBe(4);
  await noSidewaysScroll(page, 'the documents listed');
  expect(await axeViolations(page), 'axe with the documents listed').toEqual([]);
  await expect.poll(() => JSON.stringify(leadsFor(email)[0] ?? {}), { message: 'the files are stored with the quote' }).toContain(PNG.name);
  const stored = JSON.stringify(leadsFor(email)[0]);
  for (const name of [PDF.name, PDF_2023.name]) expect(stored).toContain(name);
  expect(stored).not.toContain('tool.pdf');
  expect(stored).not.toContain('scan.pdf');
});

test('documents without JavaScript: a plain form with the token posts the file, and the page says it arrived', async ({ browser, page: scanned }, info) => {
  test.skip(info.project.name !== 'phone', 'one width (320 px) is the point; the desktop project would repeat it');
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  const email = uniqueEmail(info, 'nojs-documents');
  await page.goto('/get-quote');
  await fillQuote(page, 'page-quote', email, { consent: true });
  await quoteForm(page, 'page-quote').submit.click();
  await page.waitForURL((url) => url.pathname === '/get-quote/thank-you' && /^[0-9a-f]{32}$/.test(url.searchParams.get('details') ?? ''));
  // The lists as CSV textareas, in the order the rows show with JavaScript.
  const textareas = page.locator('textarea[name$="_schedule"], textarea[name="loss_history"]');
  expect(await textareas.evaluateAll((all) => all.map((area) => (area as HTMLTextAreaElement).name))).toEqual(['vehicle_schedule', 'driver_schedule', 'loss_history']);
  const documents = page.getByRole('form', { name: 'Loss runs and other documents' });
  await expect(documents.locator('input[name="details_token"]')).toHaveValue(new URL(page.url()).searchParams.get('details')!);
  await noSidewaysScroll(page, 'the page without JavaScript');
  // axe runs as a script: the same page, opened where scripts run (its forms are not islands), is scanned.
  await scanned.goto(page.url());
  await hydrated(scanned);
  expect(await axeViolations(scanned), 'axe on the page without JavaScript').toEqual([]);
  await documents.getByLabel('Files to send').setInputFiles(PDF);
  await documents.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText(/Received: loss-runs\.pdf/)).toBeVisible();
  await noSidewaysScroll(page, 'the page after an upload');
  expect(JSON.stringify(leadsFor(email)[0])).toContain('loss-runs.pdf');
  await context.close();
});
