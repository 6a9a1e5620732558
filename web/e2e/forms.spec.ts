// The two lead forms in a real browser, read back from the database through the real CLI (`truckins leads export`).
// Quote form (home hero, /get-quote, product pages and their compact sidebar form): the consent toast with nothing
// sent, success with every field stored (phone normalised, attribution from the visit's first page) and the form
// reset, 'Processing...' while busy, a double-click stored once whether its second click lands in flight or after the
// answer (held deterministically, never timed), a success replacing an error toast at once and the reverse, a server error keeping what was
// typed, and the product's insurance type preselected. Contact form (/contact): the spec's inline messages with no
// toast, success reset, 'Sending...' while busy, and the 'Too Many Attempts' toast on a 4th message from one
// address. Both forms without JavaScript: plain posts landing on the thank-you pages, or the form again with the
// error and what was typed.
// Tests run in parallel on both projects against one server and one database: each test owns a unique e-mail
// address and only ever looks at the leads stored under it. Only the tests of where things are on screen run at both
// sizes (see onceAtDesktopSize).
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page, type Request, type TestInfo } from '@playwright/test';
import { database } from '../playwright.config';
import { hydrated, watchConsole } from './helpers';
import { movableClock, pastTooFast } from './leads';

const binary = process.env.E2E_BINARY ?? '../target/release/truckins';

/** A lead as `truckins leads export --format json` writes it (the fields these tests look at). */
interface StoredLead {
  id: number;
  source: string;
  status: string;
  created_at: string;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  insurance_type: string | null;
  vehicle_count: number | null;
  dot_number: string | null;
  subject: string | null;
  message: string | null;
  consent_given: boolean;
  consent_text: string | null;
  consent_version: string | null;
  consent_at: string | null;
  page_url: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referrer: string | null;
  landing_page: string | null;
  submission_id: string | null;
}

/**
 * Skips the phone project for a test of what a form does rather than of where things are on screen: the form's
 * script and the server are the same at both sizes, and Playwright's clicks and double-clicks are mouse events in the
 * phone project too (touch only with tap()), so the phone run repeated the desktop run, about 3 s a test. The tests
 * of positions run at both sizes: a message under its field, what moves in under the pointer after a sent form, and
 * the no-JavaScript correction page's error beside its field. So do wcag.spec's consent error on the home page's form,
 * its lasting confirmations and its toast over a phone's details form.
 */
function onceAtDesktopSize(info: TestInfo) {
  test.skip(info.project.name !== 'desktop', 'the same at both sizes: run once, at desktop size');
}

/** The stored leads with this e-mail address, read with the real CLI. */
function leadsFor(email: string): StoredLead[] {
  const json = execFileSync(binary, ['leads', 'export', '--format', 'json', '--database', database], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(json) as StoredLead[]).filter((lead) => lead.email === email);
}

/** The one lead stored with this e-mail address (fails if there is none or more than one). */
function onlyLeadFor(email: string): StoredLead {
  const leads = leadsFor(email);
  expect(leads, `leads stored for ${email}`).toHaveLength(1);
  return leads[0]!;
}

/** An address no other test (or project, or run) uses; lowercase, as the server stores it. */
function uniqueEmail(info: TestInfo, label: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${label}-${info.project.name}-${Date.now().toString(36)}-${random}@example.com`;
}

/**
 * Waits until React has hydrated this form. `hydrated()` sees `data-hydrated`, which hydrate.tsx sets as soon as
 * hydrateRoot() returns; React hydrates a moment later (about 10-120 ms here), and only then is the form's submit
 * handler attached and the quote form's clock started.
 */
async function formHydrated(form: Locator) {
  await expect
    .poll(() => form.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))), {
      message: 'React has hydrated the form',
    })
    .toBe(true);
}

/**
 * Opens a page with a quote form and waits for it; the returned function stands for a person's fill time. The server
 * marks a submission sent less than 1.5 s after its page began to load (`elapsed_ms`) as suspected spam: the page's
 * clock is moved past that (see `pastTooFast`) rather than waited out.
 */
async function openQuoteForm(page: Page, path: string, prefix: string): Promise<() => Promise<void>> {
  await movableClock(page);
  await page.goto(path);
  await hydrated(page);
  await formHydrated(quoteForm(page, prefix).form);
  return () => pastTooFast(page);
}

/** Counts the POSTs to a leads endpoint and lets a test wait until every one of them has been answered. */
function trackPosts(page: Page, endpoint: string) {
  const pending = new Set<Request>();
  let sent = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === endpoint) {
      sent += 1;
      pending.add(request);
    }
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return {
    sent: () => sent,
    settled: () => expect.poll(() => pending.size, { message: `${endpoint} requests still in flight` }).toBe(0),
  };
}

/** Holds the POSTs to `endpoint` until `release()` is called, so a test decides what happens while one is in flight. */
async function holdPosts(page: Page, endpoint: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${endpoint}`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Counts the submit events the form dispatches (what a click really set off, whether or not a POST followed). The
 * count is kept on the window, so it can still be read once a taken form has given way to its confirmation.
 */
async function countSubmits(form: Locator): Promise<() => Promise<number>> {
  await form.evaluate((element) => {
    const counted = window as Window & { submits?: number };
    counted.submits = 0;
    element.addEventListener('submit', () => (counted.submits = (counted.submits ?? 0) + 1));
  });
  return () => form.page().evaluate(() => (window as Window & { submits?: number }).submits ?? 0);
}

/** The only toast on screen has this title, and appears within a second of `answered` (the bug was 8 s). */
async function expectOnlyToastSoonAfter(page: Page, answered: Promise<unknown>, variant: 'success' | 'destructive', title: string, description: string) {
  await answered;
  const toast = page.locator('.toast');
  await expect(toast.getByText(title, { exact: true })).toBeVisible({ timeout: 1000 });
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute('data-variant', variant);
  await expect(toast.getByText(description, { exact: true })).toBeVisible();
  return toast;
}

/** The toast shown now: its title and description in the live region its variant is announced in. */
async function expectToast(page: Page, variant: 'success' | 'destructive', title: string, description: string) {
  const region = page.getByRole(variant === 'destructive' ? 'alert' : 'status').filter({ hasText: title });
  const toast = region.locator('.toast');
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-variant', variant);
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
  await expect(toast.getByText(description, { exact: true })).toBeVisible();
  return toast;
}

/** Whether a CSS colour (`rgb(...)` or `oklch(...)` as computed) is a red: the error colour, not ink or grey. */
async function looksRed(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    // Let the browser convert whatever colour space the style uses into sRGB bytes.
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data as unknown as [number, number, number];
    return r > 150 && r > g * 2 && r > b * 2;
  });
}

/**
 * The lasting confirmation a taken form leaves in its place: its heading, with focus (the form's button is gone, and
 * focus must not fall to <body>).
 */
async function expectReceived(page: Page, title: string) {
  const heading = page.getByRole('heading', { name: title, exact: true });
  await expect(heading).toBeVisible();
  await expect(heading, 'focus moves to the confirmation').toBeFocused();
  return heading;
}

/**
 * The second click of a double-click whose first was answered in between: a press counted by the browser as click
 * number 2, on whatever moved in under the pointer when the form gave way.
 */
async function secondClickAt(page: Page, point: { x: number; y: number }) {
  await page.mouse.move(point.x, point.y);
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
}

/** The centre of an element in the viewport, scrolled to the middle of the screen, clear of any toast at the bottom. */
async function centreOf(target: Locator) {
  await target.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = (await target.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function dismissToast(toast: Locator) {
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast).toHaveCount(0);
}

// ---------------------------------------------------------------------------------------------------------------
// The quote form

interface Quote {
  name: string;
  email: string;
  phone: string;
  company: string;
  insuranceType: string | null; // null: leave the (preselected) choice alone
  vehicleCount: string;
  dotNumber: string;
}

function quoteFor(email: string, overrides: Partial<Quote> = {}): Quote {
  return {
    name: "Dana O'Neil-Ruiz",
    email,
    phone: '(555) 210-0142',
    company: 'Red River Haulers LLC',
    insuranceType: 'hotshot',
    vehicleCount: '3',
    dotNumber: '1234567',
    ...overrides,
  };
}

const QUOTE_TEXT_FIELDS = ['name', 'email', 'phone', 'company', 'vehicle_count', 'dot_number'] as const;

function quoteForm(page: Page, prefix: string) {
  const field = (name: string) => page.locator(`#${prefix}-${name}`);
  const form = page.locator('form').filter({ has: field('name') });
  return { form, field, submit: form.locator('button[type="submit"]') };
}

async function fillQuote(page: Page, prefix: string, quote: Quote, { consent }: { consent: boolean }) {
  const { field } = quoteForm(page, prefix);
  await field('name').fill(quote.name);
  await field('email').fill(quote.email);
  await field('phone').fill(quote.phone);
  await field('company').fill(quote.company);
  if (quote.insuranceType !== null) await field('insurance_type').selectOption(quote.insuranceType);
  await field('vehicle_count').fill(quote.vehicleCount);
  await field('dot_number').fill(quote.dotNumber);
  if (consent) await field('consent').check();
}

async function expectQuoteKept(page: Page, prefix: string, quote: Quote) {
  const { field } = quoteForm(page, prefix);
  await expect(field('name')).toHaveValue(quote.name);
  await expect(field('email')).toHaveValue(quote.email);
  await expect(field('phone')).toHaveValue(quote.phone);
  await expect(field('company')).toHaveValue(quote.company);
  if (quote.insuranceType !== null) await expect(field('insurance_type')).toHaveValue(quote.insuranceType);
  await expect(field('vehicle_count')).toHaveValue(quote.vehicleCount);
  await expect(field('dot_number')).toHaveValue(quote.dotNumber);
  await expect(field('consent')).toBeChecked();
}

const QUOTE_SUCCESS = ['Quote request submitted!', 'A trucking insurance specialist will contact you shortly.'] as const;

test.describe('the quote form', () => {
  test('without consent it shows the Consent Required toast and sends nothing', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-no-consent');
    const posts = trackPosts(page, '/api/leads/quote');
    const humanPause = await openQuoteForm(page, '/', 'home-quote');
    const quote = quoteFor(email);
    await fillQuote(page, 'home-quote', quote, { consent: false });
    await humanPause();
    await quoteForm(page, 'home-quote').submit.click();
    await expectToast(page, 'destructive', 'Consent Required', 'Please agree to our communication terms to proceed.');
    // Blocked in the browser: what was typed stays, and the server never hears of it.
    const { field, submit } = quoteForm(page, 'home-quote');
    await expect(field('name')).toHaveValue(quote.name);
    await expect(field('consent')).not.toBeChecked();
    await expect(submit).toBeEnabled();
    expect(posts.sent()).toBe(0);
    expect(leadsFor(email)).toEqual([]);
    console.check();
  });

  test('a quote is stored with every field and the visit attribution; "Request received" takes the form\'s place, and another starts empty', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-success');
    // The visit starts on another page, from a campaign link; the quote is asked for later in the visit.
    await page.goto('/about?utm_source=test&utm_campaign=winter');
    await hydrated(page);
    const origin = new URL(page.url()).origin;
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    const quote = quoteFor(email);
    await fillQuote(page, 'page-quote', quote, { consent: true });
    await humanPause();
    const { field, submit } = quoteForm(page, 'page-quote');
    await submit.click();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await expectReceived(page, 'Request received');
    await expect(field('name'), 'the sent form is gone').toHaveCount(0);

    await page.getByRole('button', { name: 'Request another quote' }).click();
    for (const name of QUOTE_TEXT_FIELDS) await expect(field(name), name).toHaveValue('');
    await expect(field('insurance_type')).toHaveValue('');
    await expect(field('consent')).not.toBeChecked();
    await expect(field('name'), 'focus on the new form').toBeFocused();
    await expect(submit).toBeEnabled();
    await expect(submit).toHaveText('Get My Free Quote');

    const lead = onlyLeadFor(email);
    expect(lead).toMatchObject({
      source: 'quote',
      status: 'new',
      name: quote.name,
      email,
      phone: '+15552100142',
      company: quote.company,
      insurance_type: 'hotshot',
      vehicle_count: 3,
      dot_number: '1234567',
      subject: null,
      message: null,
      consent_given: true,
      page_url: `${origin}/get-quote`,
      landing_page: `${origin}/about?utm_source=test&utm_campaign=winter`,
      utm_source: 'test',
      utm_campaign: 'winter',
      utm_medium: null,
    });
    expect(lead.consent_text, 'the consent text shown is kept as evidence').toBeTruthy();
    expect(lead.consent_at).toBeTruthy();
    expect(lead.submission_id).toMatch(/^[0-9a-f]{32}$/);
    console.check();
  });

  test("the button reads 'Processing...' and is disabled while submitting", async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-busy');
    // Held until the busy button has been seen, however long that takes.
    const release = await holdPosts(page, '/api/leads/quote');
    const humanPause = await openQuoteForm(page, '/', 'home-quote');
    await fillQuote(page, 'home-quote', quoteFor(email, { insuranceType: 'commercial', vehicleCount: '12' }), { consent: true });
    await humanPause();
    const { submit } = quoteForm(page, 'home-quote');
    await expect(submit).toHaveText('Get My Free Quote');
    await submit.click();
    await expect(submit).toHaveText('Processing...');
    await expect(submit).toBeDisabled();
    await expect(submit, 'a busy button keeps its focus').toBeFocused();
    release();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await expectReceived(page, 'Request received');
    expect(onlyLeadFor(email)).toMatchObject({ insurance_type: 'commercial', vehicle_count: 12 });
    console.check();
  });

  test('a double-click on submit while the first is in flight sends one quote', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-double-click');
    const posts = trackPosts(page, '/api/leads/quote');
    const release = await holdPosts(page, '/api/leads/quote');
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    await fillQuote(page, 'page-quote', quoteFor(email), { consent: true });
    await humanPause();
    const { form, submit } = quoteForm(page, 'page-quote');
    const submits = await countSubmits(form);
    // Both clicks land while the first submission is held on its way to the server.
    await submit.dblclick();
    expect(await submits()).toBe(1);
    release();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await posts.settled();
    expect(posts.sent()).toBe(1);
    expect(leadsFor(email)).toHaveLength(1);
    console.check();
  });

  test("a double-click's second click after the answer sends nothing and shows no error", async ({ page }, info) => {
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-late-second-click');
    const posts = trackPosts(page, '/api/leads/quote');
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    await fillQuote(page, 'page-quote', quoteFor(email), { consent: true });
    await humanPause();
    const { form, submit } = quoteForm(page, 'page-quote');
    const submits = await countSubmits(form);
    const details = trackPosts(page, '/api/leads/details');
    await submit.click();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await expectReceived(page, 'Request received');
    // What moved in under the pointer is not pressed by the rest of the double-click: not "Request another quote"...
    await secondClickAt(page, await centreOf(page.getByRole('button', { name: 'Request another quote' })));
    await expect(page.getByRole('heading', { name: 'Request received' })).toBeVisible();
    await expect(quoteForm(page, 'page-quote').field('name'), 'the form did not come back').toHaveCount(0);
    // ... nor the details form's button.
    await secondClickAt(page, await centreOf(page.getByRole('button', { name: 'Send Details' })));
    expect(await submits(), 'the sent form is not submitted again').toBe(1);
    await expect(page.locator('.toast[data-variant="destructive"]')).toHaveCount(0);
    await posts.settled();
    expect(posts.sent()).toBe(1);
    expect(details.sent()).toBe(0);
    expect(leadsFor(email)).toHaveLength(1);
    console.check();
  });

  test('a success replaces the Consent Required toast at once, and the reverse', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-error-then-success');
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    await fillQuote(page, 'page-quote', quoteFor(email), { consent: false });
    await humanPause();
    const { field, submit } = quoteForm(page, 'page-quote');
    await submit.click();
    await expectToast(page, 'destructive', 'Consent Required', 'Please agree to our communication terms to proceed.');
    await field('consent').check();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.status() === 201);
    await submit.click();
    await expectOnlyToastSoonAfter(page, answered, 'success', ...QUOTE_SUCCESS);
    await expect(page.getByRole('alert').locator('.toast')).toHaveCount(0);
    expect(onlyLeadFor(email)).toMatchObject({ consent_given: true });

    // And the other way round: another request, consent not ticked again, is stopped at once.
    await page.getByRole('button', { name: 'Request another quote' }).click();
    await fillQuote(page, 'page-quote', quoteFor(email, { company: 'Second Request LLC' }), { consent: false });
    await submit.click();
    const toast = page.locator('.toast');
    await expect(toast.getByText('Consent Required', { exact: true })).toBeVisible({ timeout: 1000 });
    await expect(toast).toHaveCount(1);
    await expect(page.getByRole('status').locator('.toast')).toHaveCount(0);
    console.check();
  });

  test('a submission sent twice at once is stored once', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-twice');
    const posts = trackPosts(page, '/api/leads/quote');
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    await fillQuote(page, 'page-quote', quoteFor(email), { consent: true });
    await humanPause();
    // Two submits in the same task, before the form can re-render as busy: both carry one submission id.
    await quoteForm(page, 'page-quote').form.evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await posts.settled();
    info.annotations.push({ type: 'posts sent', description: String(posts.sent()) });
    expect(leadsFor(email)).toHaveLength(1);
    console.check();
  });

  test('a server error shows the Submission Error toast, keeps the fields, and a retry is stored once', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const email = uniqueEmail(info, 'quote-server-error');
    await page.route(
      '**/api/leads/quote',
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Internal Server Error', message: 'Something broke.' }),
        }),
      { times: 1 },
    );
    const humanPause = await openQuoteForm(page, '/', 'home-quote');
    const quote = quoteFor(email, { insuranceType: 'cargo' });
    await fillQuote(page, 'home-quote', quote, { consent: true });
    await humanPause();
    const { submit } = quoteForm(page, 'home-quote');
    await submit.click();
    const toast = await expectToast(
      page,
      'destructive',
      'Submission Error',
      'There was an error submitting your request. Please try again.',
    );
    await expect(submit).toBeEnabled();
    await expect(submit).toHaveText('Get My Free Quote');
    await expectQuoteKept(page, 'home-quote', quote);
    expect(leadsFor(email)).toEqual([]);

    // Trying again reaches the server and is stored.
    await dismissToast(toast);
    await submit.click();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    expect(onlyLeadFor(email)).toMatchObject({ insurance_type: 'cargo', consent_given: true });
  });

  test("the server's field errors show in red under their fields, and a corrected quote is stored", async ({ page }, info) => {
    const email = uniqueEmail(info, 'quote-field-errors');
    const humanPause = await openQuoteForm(page, '/get-quote', 'page-quote');
    // Passes the browser's own checks; only the server knows a name has no digits.
    const quote = quoteFor(email, { name: 'Route 66 Haulers' });
    await fillQuote(page, 'page-quote', quote, { consent: true });
    await humanPause();
    const { field, submit } = quoteForm(page, 'page-quote');
    const nameError = page.locator('#page-quote-name-error');
    await submit.click();
    await expect(nameError).toHaveText('Name can only contain letters, spaces, hyphens, and apostrophes');
    await expect(nameError).toBeVisible();
    expect(await looksRed(nameError), 'the message is red').toBe(true);
    const [input, message] = await Promise.all([field('name').boundingBox(), nameError.boundingBox()]);
    expect(message!.y, 'the message sits under its field').toBeGreaterThanOrEqual(input!.y + input!.height - 1);
    await expect(field('name')).toHaveAttribute('aria-invalid', 'true');
    await expect(field('name'), 'focus moves to the field in error').toBeFocused();
    await expect(page.locator('#page-quote-email-error')).toHaveText('');
    await expect(page.locator('.toast')).toHaveCount(0);
    await expectQuoteKept(page, 'page-quote', quote);
    expect(leadsFor(email)).toEqual([]);

    const console = watchConsole(page);
    await field('name').fill('Dana Ruiz');
    await submit.click();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await expectReceived(page, 'Request received');
    expect(onlyLeadFor(email)).toMatchObject({ name: 'Dana Ruiz', insurance_type: 'hotshot' });
    console.check();
  });

  test('product pages preselect their insurance type in both forms', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const products = [
      ['/products/dump-truck-insurance', 'dump'],
      ['/products/hotshot-insurance', 'hotshot'],
      ['/products/cargo-insurance', 'cargo'],
      ['/products/general-liability-insurance', 'liability'],
    ] as const;
    for (const [path, type] of products) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.locator('#product-quote-insurance_type'), path).toHaveValue(type);
      await expect(page.locator('#sidebar-quote-insurance_type'), path).toHaveValue(type);
    }
  });

  test("the compact sidebar form on a product page stores a quote with the page's type", async ({ page }, info) => {
    test.skip(info.project.name === 'phone', 'a phone shows one quote form, the one after the article');
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'quote-sidebar');
    const humanPause = await openQuoteForm(page, '/products/dump-truck-insurance', 'sidebar-quote');
    const origin = new URL(page.url()).origin;
    const quote = quoteFor(email, { insuranceType: null, phone: '555.301.0199', company: '', dotNumber: '' });
    await fillQuote(page, 'sidebar-quote', quote, { consent: true });
    await humanPause();
    const { field, submit } = quoteForm(page, 'sidebar-quote');
    await submit.click();
    await expectToast(page, 'success', ...QUOTE_SUCCESS);
    await expectReceived(page, 'Request received');
    await expect(field('name'), 'the sidebar form gave way').toHaveCount(0);
    // The hero form was not touched.
    await expect(page.locator('#product-quote-email')).toHaveValue('');
    expect(onlyLeadFor(email)).toMatchObject({
      source: 'quote',
      insurance_type: 'dump',
      phone: '+15553010199',
      company: null,
      dot_number: null,
      vehicle_count: 3,
      consent_given: true,
      page_url: `${origin}/products/dump-truck-insurance`,
      landing_page: `${origin}/products/dump-truck-insurance`,
    });
    console.check();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The contact form

interface Message {
  name: string;
  email: string;
  subject: string;
  message: string;
}

const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;

function contactForm(page: Page) {
  const field = (name: (typeof CONTACT_FIELDS)[number]) => page.locator(`#contact-${name}`);
  const error = (name: (typeof CONTACT_FIELDS)[number]) => page.locator(`#contact-${name}-error`);
  return { field, error, submit: page.locator('form').filter({ has: field('name') }).locator('button[type="submit"]') };
}

/** Opens /contact and waits for its form, with the page's clock moved past the server's too-fast check (see openQuoteForm). */
async function openContactForm(page: Page) {
  await movableClock(page);
  await page.goto('/contact');
  await hydrated(page);
  await formHydrated(page.locator('form').filter({ has: page.locator('#contact-name') }));
  await pastTooFast(page);
}

async function fillContact(page: Page, message: Message) {
  const { field } = contactForm(page);
  for (const name of CONTACT_FIELDS) await field(name).fill(message[name]);
}

const CONTACT_SUCCESS = ['Message received!', "Thank you for contacting us. We'll respond shortly."] as const;

test.describe('the contact form', () => {
  test('an empty form shows the four inline messages and no toast; a corrected one is stored and "Message received" takes its place', async ({ page }, info) => {
    const email = uniqueEmail(info, 'contact-errors');
    await openContactForm(page);
    const { field, error, submit } = contactForm(page);
    await submit.click();
    const expected = {
      name: 'Name must be at least 2 characters',
      email: 'Please enter a valid email address',
      subject: 'Subject must be at least 5 characters',
      message: 'Message must be at least 10 characters',
    } as const;
    for (const name of CONTACT_FIELDS) {
      await expect(error(name), name).toHaveText(expected[name]);
      await expect(error(name), name).toBeVisible();
      await expect(field(name), name).toHaveAttribute('aria-invalid', 'true');
      await expect(field(name), name).toHaveAttribute('aria-describedby', `contact-${name}-error`);
    }
    // The message sits under its field.
    const [input, message] = await Promise.all([field('name').boundingBox(), error('name').boundingBox()]);
    expect(message!.y).toBeGreaterThanOrEqual(input!.y + input!.height - 1);
    await expect(field('name'), 'focus moves to the first field in error').toBeFocused();
    await expect(page.locator('.toast')).toHaveCount(0);
    expect(leadsFor(email)).toEqual([]);

    // From here on nothing should go wrong.
    const console = watchConsole(page);
    const sent = { name: 'Sam Carter', email, subject: 'Fleet coverage question', message: 'Do you cover trailers we lease by the month?' };
    await fillContact(page, sent);
    await submit.click();
    await expectToast(page, 'success', ...CONTACT_SUCCESS);
    await expectReceived(page, 'Message received');
    // Another message starts from an empty form with no message left from before.
    await page.getByRole('button', { name: 'Send another message' }).click();
    await expect(field('name'), 'focus on the new form').toBeFocused();
    for (const name of CONTACT_FIELDS) {
      await expect(field(name), name).toHaveValue('');
      await expect(error(name), name).toHaveText('');
      await expect(error(name), name).toBeHidden();
      await expect(field(name), name).not.toHaveAttribute('aria-invalid', 'true');
    }
    await expect(submit).toHaveText('Send Message');
    expect(onlyLeadFor(email)).toMatchObject({
      source: 'contact',
      status: 'new',
      name: sent.name,
      email,
      subject: sent.subject,
      message: sent.message,
      insurance_type: 'Contact Form',
      consent_given: false,
    });
    console.check();
  });

  test("the button reads 'Sending...' and is disabled while sending", async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'contact-busy');
    // Held until the busy button has been seen, however long that takes.
    const release = await holdPosts(page, '/api/leads/contact');
    await openContactForm(page);
    const origin = new URL(page.url()).origin;
    const { submit } = contactForm(page);
    await fillContact(page, { name: 'Lee Park', email, subject: 'Certificate request', message: 'Please send a certificate of insurance to our shipper.' });
    await expect(submit).toHaveText('Send Message');
    await submit.click();
    await expect(submit).toHaveText('Sending...');
    await expect(submit).toBeDisabled();
    await expect(submit, 'a busy button keeps its focus').toBeFocused();
    release();
    await expectToast(page, 'success', ...CONTACT_SUCCESS);
    await expectReceived(page, 'Message received');
    expect(onlyLeadFor(email)).toMatchObject({ subject: 'Certificate request', page_url: `${origin}/contact` });
    console.check();
  });

  test('a double-click on Send Message while the first is in flight sends one message', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'contact-double-click');
    const posts = trackPosts(page, '/api/leads/contact');
    const release = await holdPosts(page, '/api/leads/contact');
    await openContactForm(page);
    await fillContact(page, { name: 'Jo Banks', email, subject: 'Adding a driver', message: 'We are adding a second driver next month.' });
    const { submit } = contactForm(page);
    const submits = await countSubmits(page.locator('form').filter({ has: contactForm(page).field('name') }));
    await submit.dblclick();
    expect(await submits()).toBe(1);
    release();
    await expectToast(page, 'success', ...CONTACT_SUCCESS);
    await posts.settled();
    expect(posts.sent()).toBe(1);
    expect(leadsFor(email)).toHaveLength(1);
    console.check();
  });

  test("a double-click's second click after the answer does not post the emptied form", async ({ page }, info) => {
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'contact-late-second-click');
    const posts = trackPosts(page, '/api/leads/contact');
    await openContactForm(page);
    await fillContact(page, { name: 'Jo Banks', email, subject: 'Adding a driver', message: 'We are adding a second driver next month.' });
    const { field, submit } = contactForm(page);
    const submits = await countSubmits(page.locator('form').filter({ has: field('name') }));
    await submit.click();
    await expectToast(page, 'success', ...CONTACT_SUCCESS);
    await expectReceived(page, 'Message received');
    // The rest of the double-click, on what moved in under the pointer, presses nothing.
    await secondClickAt(page, await centreOf(page.getByRole('button', { name: 'Send another message' })));
    expect(await submits(), 'the sent form is not submitted again').toBe(1);
    await expect(field('name'), 'the form did not come back').toHaveCount(0);
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator('.toast[data-variant="destructive"]')).toHaveCount(0);
    await posts.settled();
    expect(posts.sent()).toBe(1);
    expect(leadsFor(email)).toHaveLength(1);
    console.check();
  });

  test('a success replaces the Submission Error toast at once, and an error replaces a success', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const email = uniqueEmail(info, 'contact-toast-pairs');
    // The first send is cut off; the second goes through; the third meets a server that cannot take it.
    let sends = 0;
    await page.route('**/api/leads/contact', (route) => {
      sends += 1;
      if (sends === 1) return route.abort('connectionreset');
      if (sends === 3) return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Service Unavailable","message":"The server is busy. Please try again in a moment."}' });
      return route.continue();
    });
    await openContactForm(page);
    const typed = { name: 'Kim Osei', email, subject: 'Certificate for a broker', message: 'A broker needs our certificate by Friday.' };
    await fillContact(page, typed);
    const { submit } = contactForm(page);
    await submit.click();
    await expectToast(page, 'destructive', 'Submission Error', "We're experiencing technical difficulties. Please try again later.");

    // Sent again without dismissing the error: the success takes its place.
    let answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/contact') && r.status() === 201);
    await submit.click();
    await expectOnlyToastSoonAfter(page, answered, 'success', ...CONTACT_SUCCESS);
    await expect(page.getByRole('alert').locator('.toast')).toHaveCount(0);

    // And the other way round: an error takes the success's place.
    await page.getByRole('button', { name: 'Send another message' }).click();
    await fillContact(page, { ...typed, subject: 'A second certificate' });
    answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/contact') && r.status() === 503);
    await submit.click();
    await expectOnlyToastSoonAfter(page, answered, 'destructive', 'Submission Error', "We're experiencing technical difficulties. Please try again later.");
    await expect(page.getByRole('status').locator('.toast')).toHaveCount(0);
    expect(onlyLeadFor(email)).toMatchObject({ subject: typed.subject });
  });

  test('a failed send shows the Submission Error toast, keeps what was typed, and a retry is stored once', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const email = uniqueEmail(info, 'contact-failure');
    // The connection drops before the server hears of it, as on a train or a flaky office line.
    await page.route('**/api/leads/contact', (route) => route.abort('connectionreset'), { times: 1 });
    await openContactForm(page);
    const typed = { name: 'Kim Osei', email, subject: 'Certificate for a broker', message: 'A broker needs our certificate by Friday.' };
    await fillContact(page, typed);
    const { field, submit } = contactForm(page);
    await submit.click();
    const toast = await expectToast(page, 'destructive', 'Submission Error', "We're experiencing technical difficulties. Please try again later.");
    await expect(submit).toBeEnabled();
    await expect(submit).toHaveText('Send Message');
    for (const name of CONTACT_FIELDS) await expect(field(name), name).toHaveValue(typed[name]);
    expect(leadsFor(email)).toEqual([]);

    await dismissToast(toast);
    await submit.click();
    await expectToast(page, 'success', ...CONTACT_SUCCESS);
    expect(onlyLeadFor(email)).toMatchObject({ subject: typed.subject, message: typed.message });
  });

  test('a fourth message from one address within 10 minutes gets the Too Many Attempts toast', async ({ page }, info) => {
    onceAtDesktopSize(info);
    const email = uniqueEmail(info, 'contact-limit');
    await openContactForm(page);
    const { submit } = contactForm(page);
    for (let n = 1; n <= 3; n += 1) {
      await fillContact(page, { name: 'Alex Moreno', email, subject: `Question number ${n}`, message: `This is message number ${n} about my policy.` });
      await submit.click();
      await dismissToast(await expectToast(page, 'success', ...CONTACT_SUCCESS));
      await page.getByRole('button', { name: 'Send another message' }).click();
    }
    expect(leadsFor(email)).toHaveLength(3);

    const fourth = { name: 'Alex Moreno', email, subject: 'Question number 4', message: 'This is message number 4 about my policy.' };
    await fillContact(page, fourth);
    await submit.click();
    await expectToast(page, 'destructive', 'Too Many Attempts', 'Please wait 10 minutes before submitting another message.');
    await expect(submit).toBeEnabled();
    await expect(contactForm(page).field('message')).toHaveValue(fourth.message);
    const stored = leadsFor(email);
    expect(stored).toHaveLength(3);
    expect(stored.map((lead) => lead.subject).sort()).toEqual(['Question number 1', 'Question number 2', 'Question number 3']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Without JavaScript: plain form posts

test.describe('without JavaScript', () => {
  test('the quote form posts and lands on the thank-you page', async ({ browser }, info) => {
    onceAtDesktopSize(info);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const console = watchConsole(page);
    const email = uniqueEmail(info, 'nojs-quote');
    await page.goto('/get-quote');
    const origin = new URL(page.url()).origin;
    const quote = quoteFor(email, { insuranceType: 'liability', vehicleCount: '1' });
    await fillQuote(page, 'page-quote', quote, { consent: true });
    await quoteForm(page, 'page-quote').submit.click();
    // The address carries the quote's details token (issue 13).
    await page.waitForURL((url) => url.pathname === '/get-quote/thank-you');
    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(onlyLeadFor(email)).toMatchObject({
      source: 'quote',
      name: quote.name,
      phone: '+15552100142',
      company: quote.company,
      insurance_type: 'liability',
      vehicle_count: 1,
      dot_number: '1234567',
      consent_given: true,
      page_url: `${origin}/get-quote`,
    });
    console.check();
    await context.close();
  });

  test('the quote form shows the error beside its field with what was typed kept, then lands on the thank-you page', async ({ browser }, info) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'nojs-quote-error');
    await page.goto('/products/dump-truck-insurance');
    const quote = quoteFor(email, { name: 'Route 66 Haulers', insuranceType: 'dump' });
    await fillQuote(page, 'product-quote', quote, { consent: true });
    await quoteForm(page, 'product-quote').submit.click();
    // The answer is the quote form again, on its own page, with the error beside the field.
    const nameError = page.locator('#correction-name-error');
    await expect(nameError).toHaveText('Name can only contain letters, spaces, hyphens, and apostrophes');
    await expect(nameError).toBeVisible();
    expect(await looksRed(nameError), 'the message is red').toBe(true);
    await expect(quoteForm(page, 'correction').field('name')).toHaveAttribute('aria-invalid', 'true');
    await expectQuoteKept(page, 'correction', quote);
    expect(leadsFor(email)).toEqual([]);

    await quoteForm(page, 'correction').field('name').fill('Dana Ruiz');
    await quoteForm(page, 'correction').submit.click();
    // The address carries the quote's details token (issue 13).
    await page.waitForURL((url) => url.pathname === '/get-quote/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(onlyLeadFor(email)).toMatchObject({ name: 'Dana Ruiz', insurance_type: 'dump', vehicle_count: 3, consent_given: true });
    await context.close();
  });

  test('the contact form shows an error with what was typed kept, then lands on the thank-you page', async ({ browser }, info) => {
    onceAtDesktopSize(info);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail(info, 'nojs-contact');
    await page.goto('/contact');
    const typed = { name: 'Robin Hale', email, subject: 'Owner-operator policy', message: 'Too short' };
    await fillContact(page, typed);
    const { field, error, submit } = contactForm(page);
    await submit.click();
    await expect(error('message')).toHaveText('Message must be at least 10 characters');
    await expect(error('message')).toBeVisible();
    await expect(field('name')).toHaveValue(typed.name);
    await expect(field('email')).toHaveValue(typed.email);
    await expect(field('subject')).toHaveValue(typed.subject);
    await expect(field('message')).toHaveValue(typed.message);
    for (const name of ['name', 'email', 'subject'] as const) await expect(error(name), name).toHaveText('');
    expect(leadsFor(email)).toEqual([]);

    const corrected = 'Too short to explain here, so please call me back this week.';
    await field('message').fill(corrected);
    await submit.click();
    await page.waitForURL('**/contact/thank-you');
    expect(new URL(page.url()).pathname).toBe('/contact/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(onlyLeadFor(email)).toMatchObject({ source: 'contact', name: typed.name, subject: typed.subject, message: corrected });
    await context.close();
  });
});
