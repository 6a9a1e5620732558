// WCAG 2.2 AA as a person meets the site (issue 36, part 3), each finding measured in the browser, in both languages:
// - 2.4.11 focus not obscured at 400 % zoom (320x256, 320x200, 341x192 CSS px): the consent box a refused quote
//   focuses, and the "received" heading a sent form focuses, are never under a toast that can be seen;
// - 1.4.11 non-text contrast: the border of an empty field is 3:1 against its inside and what is around it; the skip
//   link's focus outline stays on the header's white;
// - 3.3.1 an empty quote form flags every missing field in one send (nothing is sent without consent), and the number
//   of vehicles asks for a number;
// - without JavaScript, the correction page focuses its error summary, which links to each field in error, and its
//   language switch leads to the same form in the other language;
// - 4.1.2 the change kind's radio group and the consent box are exposed as required, and no field as invalid on load;
// - 1.4.10 with 1.4.12's spacing, a product page with a long Spanish word does not scroll sideways at 320 px.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from './helpers';
import { formHydrated, pastTooFast, uniqueEmail } from './leads';
import {
  TEXT_SPACING_CSS,
  axProperties,
  borderContrast,
  describedText,
  fillQuote,
  focusIndicator,
  focusUnderToasts,
  inLanguage,
  pausedClock,
  quoteForm,
  sidewaysOverflow,
} from './wcag-helpers';

const LANGUAGES = ['en', 'es'] as const;
const softly = expect.configure({ soft: true });

// Every test here sets its own viewport (or measures what is the same at every width): run once.
test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'one run: the viewport is the test’s own'));

async function open(page: Page, path: string, status = 200) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(status);
  await hydrated(page);
}

// ---------------------------------------------------------------------------------------------------------------
// 2.4.11 Focus not obscured, at 400 % zoom

/** 1280x1024, 1280x800 and 1366x768 screens at 400 %. */
const ZOOMED = [
  { width: 320, height: 256 },
  { width: 320, height: 200 },
  { width: 341, height: 192 },
] as const;

/** Sends the quote form from the keyboard (Enter on its button), as a person at this zoom would. */
async function sendByKeyboard(page: Page, prefix: string) {
  await quoteForm(page, prefix).submit.focus();
  await page.keyboard.press('Enter');
}

for (const viewport of ZOOMED) {
  for (const language of LANGUAGES) {
    test(`${viewport.width}x${viewport.height} (${language}): neither the refused consent box nor the "received" heading is under a toast`, async ({ page }, info) => {
      await page.setViewportSize(viewport);
      await pausedClock(page);
      await open(page, inLanguage('/get-quote', language));
      const { form, consent } = quoteForm(page, 'page-quote');
      await formHydrated(form);
      await fillQuote(page, 'page-quote', uniqueEmail(info, `walk-zoom-${language}`), { consent: false });
      await pastTooFast(page);

      await sendByKeyboard(page, 'page-quote');
      await expect(page.getByRole('alert').locator('.toast'), 'the consent toast').toHaveCount(1);
      await expect(consent).toBeFocused();
      softly(await focusUnderToasts(page), 'the consent box is clear of every toast').toEqual([]);

      await page.keyboard.press('Space');
      await expect(consent).toBeChecked();
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
      await sendByKeyboard(page, 'page-quote');
      expect((await answered).status()).toBe(201);
      await expect(page.getByRole('status').locator('.toast'), 'the success toast').toHaveCount(1);
      await expect(page.locator('h2#page-quote-received')).toBeFocused();
      softly(await focusUnderToasts(page), 'the "received" heading is clear of every toast').toEqual([]);
    });
  }
}

const CONSENT_PAGES = [
  { path: '/', prefix: 'home-quote' },
  { path: '/products/dump-truck-insurance', prefix: 'product-quote' },
] as const;

for (const { path, prefix } of CONSENT_PAGES) {
  for (const language of LANGUAGES) {
    test(`320x256 (${language}): the consent box of ${inLanguage(path, language)} is not under the consent toast`, async ({ page }, info) => {
      await page.setViewportSize({ width: 320, height: 256 });
      await pausedClock(page);
      await open(page, inLanguage(path, language));
      await formHydrated(quoteForm(page, prefix).form);
      await fillQuote(page, prefix, uniqueEmail(info, `walk-consent-${language}`), { consent: false });
      await sendByKeyboard(page, prefix);
      await expect(page.getByRole('alert').locator('.toast')).toHaveCount(1);
      await expect(page.locator(`#${prefix}-consent`)).toBeFocused();
      expect(await focusUnderToasts(page)).toEqual([]);
    });
  }
}

for (const language of LANGUAGES) {
  test(`320x256 (${language}): the contact form's "received" heading is not under the success toast`, async ({ page }, info) => {
    await page.setViewportSize({ width: 320, height: 256 });
    await pausedClock(page);
    await open(page, inLanguage('/contact', language));
    const form = page.locator('form').filter({ has: page.locator('#contact-name') });
    await formHydrated(form);
    await page.locator('#contact-name').fill('Sam Carter');
    await page.locator('#contact-email').fill(uniqueEmail(info, `walk-contact-${language}`));
    await page.locator('#contact-subject').fill('Fleet coverage question');
    await page.locator('#contact-message').fill('Do you cover trailers we lease by the month?');
    await pastTooFast(page);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/contact') && r.request().method() === 'POST');
    await form.locator('button[type="submit"]').focus();
    await page.keyboard.press('Enter');
    expect((await answered).status()).toBe(201);
    await expect(page.getByRole('status').locator('.toast')).toHaveCount(1);
    await expect(page.locator('h2#contact-received')).toBeFocused();
    expect(await focusUnderToasts(page)).toEqual([]);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 1.4.11 Non-text contrast: field borders and the skip link's outline

test('the border of every empty field reaches 3:1 against its inside and what is around it', async ({ page }) => {
  const results: string[] = [];
  for (const path of ['/get-quote', '/contact', '/certificate-request', '/report-a-claim', '/policy-change']) {
    await open(page, path);
    const fields = page.locator('main form').locator('input:not([type=checkbox], [type=radio], [type=hidden]), textarea, select').filter({ visible: true });
    const count = await fields.count();
    expect(count, `${path} has fields`).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) {
      const field = fields.nth(i);
      if ((await field.inputValue()) !== '' && !(await field.evaluate((element) => element instanceof HTMLSelectElement))) continue;
      const measured = await borderContrast(field);
      const line = `${path} #${await field.getAttribute('id')}: ${measured.summary}`;
      results.push(line);
      softly(measured.ratio, line).toBeGreaterThanOrEqual(3);
    }
  }
  test.info().annotations.push({ type: 'field borders', description: results.join('\n') });
});

for (const language of LANGUAGES) {
  for (const width of [320, 1280]) {
    test(`the skip link's focus outline stays on the header and reaches 3:1 (${language}, ${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 320 ? 256 : 800 });
      await open(page, inLanguage('/', language));
      await page.keyboard.press('Tab');
      const skip = page.locator(':focus');
      await expect(skip).toHaveAttribute('href', '#main');
      const measured = await focusIndicator(skip);
      softly(measured.ratio ?? 0, measured.summary).toBeGreaterThanOrEqual(3);
      const reach = await skip.evaluate((element) => {
        const style = getComputedStyle(element);
        const out = (parseFloat(style.outlineOffset) || 0) + (parseFloat(style.outlineWidth) || 0);
        const box = element.getBoundingClientRect();
        return { outlineBottom: box.bottom + out, outlineTop: box.top - out, header: document.querySelector('header')!.getBoundingClientRect().toJSON() as DOMRect };
      });
      expect(reach.outlineTop, 'the outline starts on the header').toBeGreaterThanOrEqual(reach.header.top);
      expect(reach.outlineBottom, 'the outline ends on the header, above the hero').toBeLessThanOrEqual(reach.header.bottom);
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3.3.1 An empty quote form: every missing field at once

const EMPTY_QUOTE = {
  en: { vehicles: /^Please enter the number of vehicles$/ },
  es: { vehicles: /^Escriba la cantidad de vehículos$/ },
} as const;

for (const language of LANGUAGES) {
  test(`an empty quote sent once (${language}) flags every missing field, sends nothing, and focuses the first`, async ({ page }) => {
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/leads/')) posts += 1;
    });
    await open(page, inLanguage('/get-quote', language));
    const { form, field, consent, submit } = quoteForm(page, 'page-quote');
    await formHydrated(form);
    await submit.click();
    for (const name of ['name', 'email', 'insurance_type', 'vehicle_count', 'consent']) {
      await softly(field(name), `${name} is marked invalid`).toHaveAttribute('aria-invalid', 'true');
      softly(await describedText(field(name)), `${name} is described by a visible message`).not.toBe('');
    }
    for (const name of ['phone', 'company', 'dot_number']) await softly(field(name), `${name} (optional) is not marked`).not.toHaveAttribute('aria-invalid', 'true');
    softly(await describedText(field('vehicle_count')), 'the number of vehicles asks for a number').toMatch(EMPTY_QUOTE[language].vehicles);
    await expect(field('name'), 'focus on the first field flagged').toBeFocused();
    expect(posts, 'nothing is sent without consent').toBe(0);

    // Sent again with a name and still no consent: the name is no longer flagged, the rest still are.
    await field('name').fill('Dana Ruiz');
    await submit.click();
    await expect(field('name')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(field('email')).toHaveAttribute('aria-invalid', 'true');
    await expect(consent).toHaveAttribute('aria-invalid', 'true');
    await expect(field('email'), 'focus on the first field still flagged').toBeFocused();
    expect(posts).toBe(0);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Without JavaScript: the correction page

test.describe('without JavaScript, the correction page', () => {
  test.use({ javaScriptEnabled: false });
  for (const language of LANGUAGES) {
    test(`focuses its error summary, which links to each field in error, and switches language to the form (${language})`, async ({ page }) => {
      await page.goto(inLanguage('/get-quote', language));
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
      await quoteForm(page, 'page-quote').submit.click();
      expect((await answered).status()).toBe(422);
      await page.waitForLoadState('load');

      const summary = page.getByRole('alert');
      await expect(summary, 'the error summary has focus').toBeFocused();
      const links = summary.getByRole('link').filter({ visible: true });
      const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
      expect(hrefs, 'a link to each missing field, in the form order').toEqual(['#correction-name', '#correction-email', '#correction-insurance_type', '#correction-vehicle_count', '#correction-consent']);
      for (const [i, href] of hrefs.entries()) {
        await softly(page.locator(href), `${href} is marked invalid`).toHaveAttribute('aria-invalid', 'true');
        const message = (await page.locator(`${href}-error`).innerText()).trim();
        expect(message, `${href} has its message beside it`).not.toBe('');
        softly((await links.nth(i).innerText()).trim(), `${href}'s link says its message`).toBe(message);
      }
      await links.first().click();
      await expect(page.locator('#correction-name'), 'the link leads to its field').toBeFocused();

      const other = inLanguage('/get-quote', language === 'en' ? 'es' : 'en');
      const switches = page.locator('header a[data-language-switch]');
      expect(await switches.count()).toBeGreaterThan(0);
      for (const href of await switches.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')))) {
        softly(href, 'the language switch leads to the quote form in the other language').toBe(other);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// 4.1.2 What is required, and nothing invalid before a send

for (const language of LANGUAGES) {
  test(`the change kind and the consent box are exposed as required, and no quote field as invalid on load (${language})`, async ({ page }) => {
    await open(page, inLanguage('/policy-change', language));
    const kinds = page.locator('#change-change_kind');
    await expect(kinds).toHaveRole('radiogroup');
    await softly(kinds, 'the change kind is required').toHaveAttribute('aria-required', 'true');
    softly((await axProperties(page, '#change-change_kind')).required, 'Chromium exposes the change kind as required').toBe(true);

    await open(page, inLanguage('/get-quote', language));
    const { form, consent } = quoteForm(page, 'page-quote');
    softly(await consent.evaluate((box) => box.getAttribute('aria-required') === 'true' || box.hasAttribute('required')), 'the consent box is required').toBe(true);
    const ids = await form.locator('input:not([type=hidden]), select, textarea').evaluateAll((fields) => fields.map((field) => field.id).filter(Boolean));
    for (const id of ids) {
      if (id.endsWith('-website')) continue; // the honeypot, hidden from everyone
      await softly(page.locator(`#${id}`), `${id} has no aria-invalid on load`).not.toHaveAttribute('aria-invalid', /.*/);
      softly((await axProperties(page, `#${id}`)).invalid, `Chromium exposes ${id} as valid on load`).toBe('false');
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 1.4.10 with 1.4.12: long words at 320 px

test.describe('long words with text spacing at 320 px', () => {
  test.use({ bypassCSP: true, viewport: { width: 320, height: 640 } });
  for (const language of LANGUAGES) {
    const path = inLanguage('/products/trucking-insurance', language);
    test(`${path} does not scroll sideways`, async ({ page }) => {
      await open(page, path);
      await page.addStyleTag({ content: TEXT_SPACING_CSS });
      const overflow = await sidewaysOverflow(page);
      expect(overflow.scrollWidth, `past the edge: ${overflow.offenders.join('; ')}`).toBe(overflow.clientWidth);
    });
  }
});
