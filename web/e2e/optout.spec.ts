// The opt-out (issue 25) in a real browser, in English and Spanish, with JavaScript and without: an empty form gets
// the "one of them" message beside both fields (focus on the first with JavaScript, the correction page's alert
// without), a malformed phone its own message beside the phone field, and a valid opt-out the "received" state or
// page with what happens next, stored as the CLI lists it (`truckins optout list`). The footer and the quote form's
// consent lead to the page; the consent's link is reached from the keyboard and a click on it never ticks the box.
// Each test owns a unique e-mail address and phone number. Nothing waits a fixed time.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { hydrated, watchConsole } from './helpers';
import { formHydrated, optOutsFor, uniqueEmail, uniquePhone } from './leads';

/** `[received]` of a language's content/pages/opt-out.toml: what the visitor reads once the opt-out is taken. */
function receivedCopy(folder: string): { heading: string; text: string; next: string[]; erasureLink: string } {
  const toml = readFileSync(new URL(`../../content/${folder}pages/opt-out.toml`, import.meta.url), 'utf8');
  const received = toml.slice(toml.indexOf('[received]'));
  const value = (key: string) => JSON.parse(received.match(new RegExp(`^${key} = (".*")$`, 'm'))![1]!) as string;
  const list = received.slice(received.indexOf('next = ['), received.indexOf(']', received.indexOf('next = [')));
  const next = [...list.matchAll(/^\s+(".*"),$/gm)].map((m) => JSON.parse(m[1]!) as string);
  return { heading: value('heading'), text: value('text'), next, erasureLink: value('erasure_link') };
}

/** What differs between the languages: addresses, words the code and the server write, the content's copy. */
const LANGUAGES = [
  {
    name: 'English',
    prefix: '',
    lang: 'en',
    submit: 'Stop contacting me',
    oneOfThem: 'Please enter the phone number or the email address to stop contacting (or both)',
    badPhone: 'Please enter a valid US phone number',
    correctFields: 'Please correct the fields marked below.',
    toast: 'Opt-out request recorded',
    whatNext: 'What happens next',
    footerLink: 'Opt Out',
    received: receivedCopy(''),
  },
  {
    name: 'Spanish',
    prefix: '/es',
    lang: 'es',
    submit: 'Dejen de contactarme',
    oneOfThem: 'Escriba el número de teléfono o el correo electrónico al que no debemos contactar (o ambos)',
    badPhone: 'Escriba un número de teléfono válido de EE. UU.',
    correctFields: 'Corrija los campos marcados abajo.',
    toast: 'Solicitud de baja registrada',
    whatNext: 'Qué pasa ahora',
    footerLink: 'Darse de baja',
    received: receivedCopy('es/'),
  },
] as const;

type Language = (typeof LANGUAGES)[number];

const field = (page: Page, name: 'phone' | 'email' | 'note') => page.locator(`#optout-${name}`);
const error = (page: Page, name: 'phone' | 'email' | 'note') => page.locator(`#optout-${name}-error`);

/** What happens next, as the received panel (with JavaScript) or page (without) shows it: the region its heading names. */
async function expectWhatHappensNext(page: Page, language: Language) {
  const received = page.getByRole('region', { name: language.received.heading, exact: true });
  await expect(received.getByText(language.received.text, { exact: true })).toBeVisible();
  await expect(received.getByRole('heading', { name: language.whatNext, exact: true })).toBeVisible();
  for (const point of language.received.next) await expect(received.getByText(point, { exact: true })).toBeVisible();
  await expect(received.getByRole('link', { name: language.received.erasureLink, exact: true })).toHaveAttribute('href', `${language.prefix}/privacy`);
}

/** The one opt-out stored for this address, as the web form's. */
function expectStored(email: string, phone: string, note: string | null, pageUrl: string) {
  const stored = optOutsFor(email);
  expect(stored, `opt-outs stored for ${email}`).toHaveLength(1);
  expect(stored[0]).toMatchObject({ email, phone, channel: 'web', note, page_url: pageUrl });
  expect(stored[0]!.created_at).toBeTruthy();
}

for (const language of LANGUAGES) {
  const optOutPath = `${language.prefix}/opt-out`;

  test.describe(`${language.name}, with JavaScript`, () => {
    test('an empty form, then a malformed phone, get their messages beside the fields; a valid opt-out says what happens next and is stored', async ({ page }, info) => {
      const console = watchConsole(page);
      const email = uniqueEmail(info, `optout-${language.lang}`);
      const phone = uniquePhone();
      await page.goto(optOutPath);
      await expect(page.locator('html')).toHaveAttribute('lang', language.lang);
      await hydrated(page);
      const form = page.locator('form[action="/api/opt-out"]');
      await formHydrated(form);
      // Sent as soon as the form is ready, as an autofilled address is: the forms' timer never drops an opt-out.
      // Checked before the 422s below, which Chromium reports on the console as failed resources.
      console.check();
      const submit = form.getByRole('button', { name: language.submit, exact: true });

      // Both empty: the same message beside each, both marked, focus on the first.
      await submit.click();
      for (const name of ['phone', 'email'] as const) {
        await expect(error(page, name), name).toHaveText(language.oneOfThem);
        await expect(field(page, name), name).toHaveAttribute('aria-invalid', 'true');
        await expect(field(page, name), name).toHaveAttribute('aria-describedby', new RegExp(`optout-${name}-error`));
      }
      await expect(field(page, 'phone')).toBeFocused();
      expect(optOutsFor(email)).toEqual([]);

      // A number that is no US number: its own message, beside it alone.
      await field(page, 'phone').fill('555-0100');
      await field(page, 'email').fill(email);
      await submit.click();
      await expect(error(page, 'phone')).toHaveText(language.badPhone);
      await expect(error(page, 'email')).toHaveText('');
      await expect(field(page, 'email')).not.toHaveAttribute('aria-invalid', 'true');
      await expect(field(page, 'phone')).toBeFocused();
      expect(optOutsFor(email)).toEqual([]);

      await field(page, 'phone').fill(phone.typed);
      await field(page, 'note').fill('Please stop the texts.');
      await submit.click();
      await expect(page.getByRole('status').getByText(language.toast, { exact: true })).toBeVisible();
      // The lasting "received" panel takes the form's place, with focus, and says what happens next.
      await expect(page.getByRole('heading', { name: language.received.heading, exact: true })).toBeFocused();
      await expect(field(page, 'phone')).toHaveCount(0);
      await expectWhatHappensNext(page, language);
      const origin = new URL(page.url()).origin;
      expectStored(email, phone.e164, 'Please stop the texts.', `${origin}${optOutPath}`);
    });
  });

  test.describe(`${language.name}, without JavaScript`, () => {
    test('an empty form, then a malformed phone, come back with their messages beside the fields; a valid opt-out lands on the received page and is stored', async ({ browser }, info) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const email = uniqueEmail(info, `nojs-optout-${language.lang}`);
      const phone = uniquePhone();
      await page.goto(optOutPath);
      const submit = () => page.getByRole('button', { name: language.submit, exact: true }).click();

      await submit();
      // The correction page, in the page's language: its alert on top, the message beside each field.
      await expect(page.locator('html')).toHaveAttribute('lang', language.lang);
      await expect(page.getByRole('alert')).toContainText(language.correctFields);
      for (const name of ['phone', 'email'] as const) {
        await expect(error(page, name), name).toHaveText(language.oneOfThem);
        await expect(field(page, name), name).toHaveAttribute('aria-invalid', 'true');
      }
      expect(optOutsFor(email)).toEqual([]);

      await field(page, 'phone').fill('555-0100');
      await field(page, 'email').fill(email);
      await field(page, 'note').fill('No more calls.');
      await submit();
      await expect(error(page, 'phone')).toHaveText(language.badPhone);
      await expect(field(page, 'phone')).toHaveAttribute('aria-invalid', 'true');
      await expect(error(page, 'email')).toHaveText('');
      // What was typed is put back.
      await expect(field(page, 'phone')).toHaveValue('555-0100');
      await expect(field(page, 'email')).toHaveValue(email);
      await expect(field(page, 'note')).toHaveValue('No more calls.');
      expect(optOutsFor(email)).toEqual([]);

      await field(page, 'phone').fill(phone.typed);
      await submit();
      await page.waitForURL((url) => url.pathname === `${language.prefix}/opt-out/received`);
      await expect(page.locator('html')).toHaveAttribute('lang', language.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(language.received.heading);
      await expectWhatHappensNext(page, language);
      // Without script no page address is posted: the server keeps the Referer, here the correction page's address.
      const stored = optOutsFor(email);
      expect(stored, `opt-outs stored for ${email}`).toHaveLength(1);
      expect(stored[0]).toMatchObject({ email, phone: phone.e164, channel: 'web', note: 'No more calls.' });
      await context.close();
    });
  });

  test.describe(`${language.name}, the ways to the page`, () => {
    test('the footer leads to the opt-out page', async ({ page }) => {
      await page.goto(language.prefix || '/');
      await page.getByRole('contentinfo').getByRole('link', { name: language.footerLink, exact: true }).click();
      await page.waitForURL((url) => url.pathname === optOutPath);
      await expect(page.locator('form[action="/api/opt-out"]')).toBeVisible();
    });

    test("the quote form's consent links the page: reached by Tab after the box, a click on it never ticks the box", async ({ page }) => {
      await page.goto(`${language.prefix}/get-quote`);
      await hydrated(page);
      const box = page.locator('#page-quote-consent');
      const label = page.locator('label[for="page-quote-consent"]');
      const link = label.getByRole('link');
      await expect(link).toHaveAttribute('href', optOutPath);
      // A click on the link, its navigation held back: the box stays as it was.
      await link.evaluate((element) => element.addEventListener('click', (event) => event.preventDefault(), { once: true }));
      await link.click();
      await expect(box).not.toBeChecked();
      // From the box, Tab reaches the link; Enter follows it.
      await box.focus();
      await page.keyboard.press('Tab');
      await expect(link).toBeFocused();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === optOutPath);
    });
  });
}
