// WCAG 2.2 AA beyond axe (issue 23): what a person meets with the keyboard, at 320 px, with the text-spacing
// override, after sending a form wrongly and then rightly. Each test measures the behaviour in the browser, never
// the markup of one solution:
// - 1.4.10 reflow: no sideways scrolling at 320 px on every kind of page, English and Spanish, and the header's
//   controls on screen;
// - 1.4.12 text spacing: with WCAG's override at 1280 and 390 px, no sideways scrolling, the header's contents inside
//   it and on screen ("Get Quote" among them), and selects that show their option whole;
// - 2.4.11 focus not obscured: Tab through a product page with every focused element on screen and below the sticky
//   header; after a quote on a phone, no toast over the field being filled in;
// - 3.3.1 the consent error: beside the box, tied to it, with focus on it; gone once consent is given;
// - 2.2.1 toasts: an error stays until dismissed, a success stays while hovered or focused (a paused fake clock); a
//   press on a button beside a toast is a click on it (focus is scrolled clear of a toast only when not pressed);
// - 2.4.3 after a sent form: focus on something (not <body>, not a disabled button), and a lasting confirmation on
//   the page, not only in a toast;
// - 2.2.2 the road animation: a pause button that stops the canvas, and no motion under reduced motion;
// - 1.4.11 focus indicators: 3:1 against what is around them, at least 2 px, computed from the styles;
// - the vehicle count's limit: a `max` and a message that says it.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { hydrated } from './helpers';
import { formHydrated, leadsFor, movableClock, pastTooFast, uniqueEmail } from './leads';
import {
  PAGE_KINDS,
  TEXT_SPACING_CSS,
  describedText,
  fillQuote,
  focusIndicator,
  focusedState,
  headerOutOfBounds,
  inLanguage,
  pageTextsMatching,
  pausedClock,
  quoteForm,
  selectFits,
  sidewaysOverflow,
} from './wcag-helpers';

const LANGUAGES = ['en', 'es'] as const;
/** Soft assertions: a test reports every way a behaviour falls short, not only the first. */
const softly = expect.configure({ soft: true });

/**
 * After the fake clock fired a timer: React renders what it set off through a MessageChannel task, which the clock
 * does not drive; two round trips of such a task come after that render.
 */
async function reactSettled(page: Page) {
  for (let round = 0; round < 2; round += 1) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

async function open(page: Page, path: string, status: number) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(status);
  await hydrated(page);
}

/** Presses Tab until `isTarget` holds for the focused element, at most `limit` times; whether it was reached. */
async function tabUntil(page: Page, isTarget: () => Promise<boolean>, limit: number): Promise<boolean> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await isTarget()) return true;
  }
  return false;
}

/** Focuses `target` as a keyboard user does (Tab from the element before it), so :focus-visible applies. */
async function focusByKeyboard(page: Page, target: Locator) {
  await target.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
  expect(await target.evaluate((element) => element.matches(':focus-visible')), 'focused by keyboard, :focus-visible applies').toBe(true);
}

// ---------------------------------------------------------------------------------------------------------------
// 1.4.10 Reflow and 1.4.12 Text spacing

test.describe('reflow at 320 px (1.4.10), English and Spanish', () => {
  test.use({ viewport: { width: 320, height: 640 } });
  // Skipped before the test's page is made (a skip inside the test comes after it: about 0.3 s a test).
  test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'one width for both projects: run once'));
  for (const { kind, path, status } of PAGE_KINDS) {
    test(`${kind} (${path}) does not scroll sideways and its header controls are on screen`, async ({ page }) => {
      for (const language of LANGUAGES) {
        const address = inLanguage(path, language);
        await open(page, address, status);
        const overflow = await sidewaysOverflow(page);
        expect.soft(overflow.scrollWidth, `${address} scrolls sideways at 320 px; past the edge: ${overflow.offenders.join('; ')}`).toBe(overflow.clientWidth);
        expect.soft(await headerOutOfBounds(page, { vertical: false }), `${address}: header contents off screen at 320 px`).toEqual([]);
      }
    });
  }
});

test.describe('text spacing override (1.4.12) at the project width (1280 or 390 px), English and Spanish', () => {
  // The site's Content-Security-Policy refuses inline styles; a reader's own style sheet is not the page's to refuse.
  test.use({ bypassCSP: true });
  for (const { kind, path, status } of PAGE_KINDS) {
    test(`${kind} (${path}) keeps its content whole`, async ({ page }, info) => {
      for (const language of LANGUAGES) {
        const address = inLanguage(path, language);
        await open(page, address, status);
        await page.addStyleTag({ content: TEXT_SPACING_CSS });
        const width = page.viewportSize()!.width;
        const overflow = await sidewaysOverflow(page);
        expect.soft(overflow.scrollWidth, `${address} scrolls sideways at ${width} px; past the edge: ${overflow.offenders.join('; ')}`).toBe(overflow.clientWidth);
        expect.soft(await headerOutOfBounds(page, { vertical: true }), `${address}: header contents cut or off screen at ${width} px`).toEqual([]);

        if (info.project.name === 'desktop') {
          // The call to action beside the menus.
          const quote = page.locator(`header a[href="${inLanguage('/get-quote', language)}"]`).filter({ visible: true });
          await expect(quote, `${address}: the header shows its quote link`).toHaveCount(1);
          const box = (await quote.boundingBox())!;
          expect.soft(box.x, `${address}: the header quote link starts on screen`).toBeGreaterThanOrEqual(0);
          expect.soft(box.x + box.width, `${address}: the header quote link ends on screen (${width} px)`).toBeLessThanOrEqual(width);
        }

        const selects = page.locator('main select').filter({ visible: true });
        for (let i = 0; i < (await selects.count()); i += 1) {
          const fit = await selectFits(selects.nth(i));
          expect.soft(fit.actual, `${address}: a select shows "${fit.text}" whole: its ${fit.dimension} needs ${fit.needed} px, has ${fit.actual}`).toBeGreaterThanOrEqual(fit.needed);
        }
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// 2.4.11 Focus not obscured

test('Tab through a product page at 1280x800: every focused element is on screen and below the sticky header', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'the side form beside the article is a desktop layout');
  await open(page, '/products/dump-truck-insurance', 200);
  const sideSubmit = quoteForm(page, 'sidebar-quote').submit;
  await expect(sideSubmit, 'the side quote form').toHaveCount(1);
  const problems: string[] = [];
  let reachedSideSubmit = false;
  for (let presses = 0; presses < 150; presses += 1) {
    await page.keyboard.press('Tab');
    const state = await focusedState(page);
    if (!state || state.inFooter) break;
    const { box, viewport, description } = state;
    if (box.width === 0 || box.height === 0) problems.push(`${description}: no box`);
    else if (box.top < -0.5 || box.left < -0.5 || box.bottom > viewport.height + 0.5 || box.right > viewport.width + 0.5) {
      problems.push(`${description}: at y=${Math.round(box.top)}..${Math.round(box.bottom)}, x=${Math.round(box.left)}..${Math.round(box.right)}, outside the ${viewport.width}x${viewport.height} viewport`);
    } else if (!state.inHeader && box.top < state.headerBottom - 0.5 && !state.onTopAtItsTop) {
      problems.push(`${description}: top ${Math.round(box.top)} under the sticky header (bottom ${Math.round(state.headerBottom)})`);
    }
    const wasSideSubmit = await sideSubmit.evaluate((element) => element === document.activeElement);
    if (wasSideSubmit) reachedSideSubmit = true;
    else if (reachedSideSubmit) break;
  }
  expect.soft(problems, `focused elements hidden:\n${problems.join('\n')}`).toEqual([]);
  expect(reachedSideSubmit, "Tab reaches the side form's submit button").toBe(true);
});

test('after a quote at 390x844, no toast covers the field being filled in "Speed up your quote"', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'the toast spans a phone screen');
  await pausedClock(page);
  const email = uniqueEmail(info, 'wcag-toast-cover');
  await open(page, '/get-quote', 200);
  const { form, submit } = quoteForm(page, 'page-quote');
  await formHydrated(form);
  await fillQuote(page, 'page-quote', email, { consent: true });
  await pastTooFast(page);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
  await submit.click();
  expect((await answered).status()).toBe(201);
  const details = page.getByRole('form', { name: /speed up your quote/i });
  await expect(details).toBeVisible();

  const inDetails = () => details.evaluate((element) => element.contains(document.activeElement));
  expect(await tabUntil(page, inDetails, 60), 'Tab reaches the details form').toBe(true);
  // (A date field takes several presses, one per part: each element is reported once.)
  const covered = new Set<string>();
  for (let presses = 0; presses < 60 && (await inDetails()); presses += 1) {
    const state = (await focusedState(page))!;
    if (!state.uncoveredAtCentre) covered.add(`${state.description} at y=${Math.round(state.box.top)}..${Math.round(state.box.bottom)}, under ${state.atCentre}`);
    await page.keyboard.press('Tab');
  }
  expect([...covered], `focused fields covered:\n${[...covered].join('\n')}`).toEqual([]);
});

// ---------------------------------------------------------------------------------------------------------------
// 3.3.1 Error identification: the consent error

for (const language of LANGUAGES) {
  test(`quote without consent (${language}): the box is marked invalid, described by a visible message, and focused`, async ({ page }, info) => {
    const email = uniqueEmail(info, `wcag-consent-${language}`);
    await movableClock(page);
    await open(page, inLanguage('/', language), 200);
    const { form, consent, submit } = quoteForm(page, 'home-quote');
    await formHydrated(form);
    await fillQuote(page, 'home-quote', email, { consent: false });
    await pastTooFast(page);
    await submit.click();
    await softly(consent, 'the consent box is marked invalid').toHaveAttribute('aria-invalid', 'true');
    await softly.poll(() => describedText(consent), { message: 'the consent box is described by a visible message' }).not.toBe('');
    await softly(consent, 'focus moves to the consent box').toBeFocused();

    // Consent given, but a name the server refuses (digits): the form stays, so what the box shows now is certain.
    await consent.check();
    const { field } = quoteForm(page, 'home-quote');
    await field('name').fill('Route 66 Haulers');
    let answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
    await submit.click();
    expect((await answered).status()).toBe(422);
    await expect(field('name'), 'the server marks the name').toHaveAttribute('aria-invalid', 'true');
    await expect(field('name'), 'focus moves to the name').toBeFocused();
    await expect(consent, 'the ticked box is no longer marked').not.toHaveAttribute('aria-invalid', 'true');
    expect(await describedText(consent), 'the ticked box has no message any more').toBe('');

    await field('name').fill('Dana Ruiz');
    answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
    await submit.click();
    expect((await answered).status()).toBe(201);
    await expect.poll(() => leadsFor(email).length, { message: 'the quote is stored once' }).toBe(1);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 2.2.1 Timing adjustable: toasts

test.describe('toasts (2.2.1)', () => {
  test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'toast timing is the same at every width'));

  test('an error toast stays on screen after 60 s until its dismiss button is pressed', async ({ page }, info) => {
    await pausedClock(page);
    await open(page, '/get-quote', 200);
    const { form, submit } = quoteForm(page, 'page-quote');
    await formHydrated(form);
    // The form's own error toast: consent not given.
    await fillQuote(page, 'page-quote', uniqueEmail(info, 'wcag-error-toast'), { consent: false });
    await submit.click();
    const toast = page.getByRole('alert').filter({ hasText: 'Consent Required' });
    await expect(toast).toBeVisible();
    await page.clock.fastForward(60_000);
    await reactSettled(page);
    await expect(toast, 'the error toast is still on screen 60 s later').toBeVisible();
    // Dismissed from the keyboard: focus goes back where it was (the consent box the refusal focused), not to <body>.
    const { consent } = quoteForm(page, 'page-quote');
    await expect(consent).toBeFocused();
    await toast.getByRole('button', { name: /dismiss|close/i }).focus();
    await page.keyboard.press('Enter');
    await expect(toast).toHaveCount(0);
    await expect(consent, 'focus is back on the consent box').toBeFocused();
  });

  // 2.4.11's scroll (a field focused under a toast is scrolled clear of it) must not move the page between a press and
  // its release: the click would land below what was pressed, here the form's padding, and nothing would be sent.
  test("a press on a button whose lower edge is under an error toast's band is a click on it", async ({ page }, info) => {
    await movableClock(page);
    await open(page, '/get-quote', 200);
    const { form, field, consent, submit } = quoteForm(page, 'page-quote');
    await formHydrated(form);
    await fillQuote(page, 'page-quote', uniqueEmail(info, 'wcag-press-by-toast'), { consent: false });
    await pastTooFast(page);
    await submit.click();
    const toast = page.getByRole('alert').locator('.toast');
    await expect(toast).toBeVisible();
    // Consent given and a name the server refuses: the press that sends the form is answered 422, and nothing is kept.
    await consent.check();
    await field('name').fill('Route 66 Haulers');
    // The button's lower 20 px level with the toast, the point pressed 4 px above the toast's top.
    const toastTop = (await toast.boundingBox())!.y;
    const before = (await submit.boundingBox())!;
    await page.evaluate((by) => window.scrollBy({ top: by, behavior: 'instant' }), before.y + before.height - 20 - toastTop);
    const button = (await submit.boundingBox())!;
    const point = { x: button.x + 16, y: toastTop - 4 };
    const onButton = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button[type="submit"]') !== null, point);
    expect(onButton, 'the point pressed is on the button, in sight').toBe(true);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/leads/quote') && r.request().method() === 'POST');
    await page.mouse.click(point.x, point.y);
    expect((await answered).status(), 'the press sent the form').toBe(422);
  });

  test('a success toast stays on screen while hovered, and while focused', async ({ page }, info) => {
    await pausedClock(page);
    const email = uniqueEmail(info, 'wcag-success-toast');
    await open(page, '/get-quote', 200);
    const { form, submit } = quoteForm(page, 'page-quote');
    await formHydrated(form);
    await fillQuote(page, 'page-quote', email, { consent: true });
    await pastTooFast(page);
    await submit.click();
    const toast = page.getByRole('status').filter({ hasText: 'Quote request submitted!' });
    await expect(toast).toBeVisible();
    expect(leadsFor(email)).toHaveLength(1);

    await toast.getByText('Quote request submitted!').hover();
    await page.clock.fastForward(20_000);
    await reactSettled(page);
    await expect(toast, 'the success toast is still on screen after 20 s under the mouse').toBeVisible();

    await page.mouse.move(5, 5);
    await toast.getByRole('button', { name: /dismiss|close/i }).focus();
    await page.clock.fastForward(20_000);
    await reactSettled(page);
    await expect(toast, 'the success toast is still on screen after 20 s with focus in it').toBeVisible();

    // Let go of, it closes by itself (its words stay on the page, in the form's place).
    await page.getByRole('heading', { name: 'Request received' }).focus();
    await page.clock.fastForward(20_000);
    await expect(toast, 'a success toast nothing holds closes').toHaveCount(0);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 2.4.3 Focus order after sending, and a lasting confirmation

/** Where focus is after a form was sent: 'ok', or what is wrong with it. */
function focusAfterSending(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body || element === document.documentElement) return 'focus fell to <body>';
    if (element.matches(':disabled')) return `focus is on a disabled ${element.tagName.toLowerCase()}`;
    return 'ok';
  });
}

const CONFIRMATIONS = [
  { name: 'a quote', path: '/get-quote', language: 'en', received: /received/i },
  { name: 'a Spanish quote', path: '/es/get-quote', language: 'es', received: /recibid/i },
  { name: 'a message', path: '/contact', language: 'en', received: /received/i },
] as const;

for (const { name, path, received } of CONFIRMATIONS) {
  test(`after ${name} is sent (${path}), focus is on the page and a lasting confirmation says it was received`, async ({ page }, info) => {
    test.skip(path !== '/get-quote' && info.project.name !== 'phone', 'both widths for the English quote; the others on a phone only');
    await pausedClock(page);
    const email = uniqueEmail(info, 'wcag-received');
    await open(page, path, 200);
    const contact = path === '/contact';
    const form = contact ? page.locator('form').filter({ has: page.locator('#contact-name') }) : quoteForm(page, 'page-quote').form;
    await formHydrated(form);
    const before = await pageTextsMatching(page, received);
    if (contact) {
      await page.locator('#contact-name').fill('Sam Carter');
      await page.locator('#contact-email').fill(email);
      await page.locator('#contact-subject').fill('Fleet coverage question');
      await page.locator('#contact-message').fill('Do you cover trailers we lease by the month?');
    } else {
      await fillQuote(page, 'page-quote', email, { consent: true });
    }
    await pastTooFast(page);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/leads/') && r.request().method() === 'POST');
    await form.locator('button[type="submit"]').click();
    expect((await answered).status()).toBe(201);
    await expect.poll(() => leadsFor(email).length, { message: 'stored once' }).toBe(1);
    await softly.poll(() => focusAfterSending(page), { message: 'where focus is after sending' }).toBe('ok');

    await page.clock.fastForward(12_000);
    await expect
      .poll(async () => (await pageTextsMatching(page, received)).filter((text) => !before.includes(text)), {
        message: `12 s later the page (not a toast) says ${received}`,
      })
      .not.toEqual([]);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 2.2.2 Pause, stop, hide: the road animation

const ANIMATION = [
  { language: 'en', pause: /pause/i, play: /play/i },
  { language: 'es', pause: /pausar/i, play: /reanudar/i },
] as const;

test.describe('the road animation (2.2.2)', () => {
  test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'the hero animation at desktop size'));

  for (const { language, pause, play } of ANIMATION) {
    test(`has a keyboard pause button that stops it (${language})`, async ({ page }) => {
      await pausedClock(page);
      await open(page, inLanguage('/', language), 200);
      const canvas = page.locator('canvas').first();
      const frame = () => canvas.evaluate((element: HTMLCanvasElement) => element.toDataURL());
      // Running: the fake clock drives its animation frames.
      let still = await frame();
      await page.clock.runFor(1000);
      expect(await frame(), 'the road moves while running').not.toBe(still);

      const pauseButton = page.getByRole('button', { name: pause });
      await expect(pauseButton, 'a pause button for the animation').toHaveCount(1);
      const focused = await tabUntil(page, () => pauseButton.evaluate((element) => element === document.activeElement), 80);
      expect(focused, 'the pause button is reached with Tab').toBe(true);
      await page.keyboard.press('Enter');
      await expect(page.locator(':focus'), 'the pressed button keeps focus and offers to play').toHaveAccessibleName(play);
      still = await frame();
      await page.clock.runFor(1000);
      expect(await frame(), 'the road stands still while paused').toBe(still);

      await page.keyboard.press('Enter');
      await expect(page.locator(':focus')).toHaveAccessibleName(pause);
      still = await frame();
      await page.clock.runFor(1000);
      expect(await frame(), 'the road moves again').not.toBe(still);
    });
  }

  test('stands still under prefers-reduced-motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await pausedClock(page);
    await open(page, '/', 200);
    const canvas = page.locator('canvas').first();
    const frame = () => canvas.evaluate((element: HTMLCanvasElement) => element.toDataURL());
    const still = await frame();
    await page.clock.runFor(1000);
    expect(await frame(), 'the road stands still').toBe(still);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 1.4.11 Non-text contrast: focus indicators

test('focus indicators reach 3:1 against what is around them and are at least 2 px thick', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'styles are the same at both widths');
  const results: string[] = [];
  const check = async (place: string, target: Locator) => {
    await focusByKeyboard(page, target);
    const measured = await focusIndicator(target);
    const line = `${place}: ${measured.summary}`;
    results.push(line);
    expect.soft(measured.indicator, line).not.toBeNull();
    if (measured.indicator) {
      expect.soft(measured.ratio, `${line} (3:1 needed)`).toBeGreaterThanOrEqual(3);
      expect.soft(measured.indicator.thickness, `${line} (2 px needed)`).toBeGreaterThanOrEqual(2);
    }
  };

  await open(page, '/', 200);
  const hero = quoteForm(page, 'home-quote');
  await check('home hero form, first text input', hero.form.getByRole('textbox').first());
  await check('home hero form, submit button', hero.submit);
  // The dark call-to-action band before the footer: the last region of the page.
  const band = page.locator('main').getByRole('region').last();
  const links = band.getByRole('link');
  await expect(links.first(), 'the call-to-action band has links').toBeVisible();
  for (let i = 0; i < (await links.count()); i += 1) {
    await check(`call-to-action band, link "${(await links.nth(i).innerText()).trim()}"`, links.nth(i));
  }

  await open(page, '/contact', 200);
  await check('contact form, first text input', page.locator('form').filter({ has: page.locator('#contact-name') }).getByRole('textbox').first());
  info.annotations.push({ type: 'focus indicators', description: results.join('\n') });
});

// ---------------------------------------------------------------------------------------------------------------
// The vehicle count's limit

test('200000 vehicles: the field has a max, and the message beside it states the limit', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'the same form at both widths');
  await movableClock(page);
  await open(page, '/get-quote', 200);
  const { form, field, submit } = quoteForm(page, 'page-quote');
  await formHydrated(form);
  const vehicles = field('vehicle_count');
  expect.soft(await vehicles.getAttribute('max'), 'the number of vehicles has a max').toBe('100000');
  await fillQuote(page, 'page-quote', uniqueEmail(info, 'wcag-vehicles'), { consent: true, vehicles: '200000' });
  await pastTooFast(page);
  await submit.click();
  await expect.poll(() => describedText(vehicles), { message: 'the message beside the number of vehicles states the limit' }).toMatch(/100[,.\u202f\u00a0]?000/);
});
