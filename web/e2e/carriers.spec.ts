// The quote form's DOT lookup in a real browser, against the real binary: the suite's server has the census of
// tests/fixtures/census.csv imported (see playwright.config.ts), a second server has none. A number typed and left
// to rest is offered as "Is this your company?"; Yes fills Company and Number of Vehicles only where they are
// empty; No (by keyboard here) dismisses; without a census nothing is offered and nothing is said.
import { expect, test, type Page } from '@playwright/test';
import { noCensusPort } from '../playwright.config';
import { hydrated } from './helpers';

const PREFIX = 'page-quote';
/** In the census fixture: LONE STAR HAULERS, LLC of AUSTIN, TX, 12 power units. */
const LONE_STAR = '1234567';

function quoteForm(page: Page) {
  const field = (name: string) => page.locator(`#${PREFIX}-${name}`);
  const offer = page.locator(`#${PREFIX}-carrier`);
  // The offer's container: `data-lookup="done"` once the answer to the number in the field was handled.
  const lookup = page.locator('[data-carrier-match]').filter({ has: offer });
  const answer = page.locator(`form:has(#${PREFIX}-dot_number) input[name="carrier_answer"]`);
  return { field, offer, lookup, answer, yes: page.getByRole('button', { name: /^Yes/ }), no: page.getByRole('button', { name: 'No', exact: true }) };
}

async function openQuoteForm(page: Page, origin = '') {
  await page.goto(`${origin}/get-quote`);
  await hydrated(page);
  const form = page.locator('form').filter({ has: quoteForm(page).field('dot_number') });
  // React has attached its handlers (and the lookup its listeners) once the form carries React's props.
  await expect
    .poll(() => form.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))))
    .toBe(true);
}

/** Types a DOT number and waits for the census's answer to it (the lookup runs when typing pauses) and for the
 * island to have handled that answer: an assertion that nothing is offered is meaningful only after that. */
async function typeDot(page: Page, dot: string, status: number) {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/carriers/${dot}`);
  await quoteForm(page).field('dot_number').pressSequentially(dot);
  expect((await answered).status()).toBe(status);
  await expect(quoteForm(page).lookup).toHaveAttribute('data-lookup', 'done');
}

test.describe('the DOT lookup', () => {
  test('Yes fills Company and Number of Vehicles when they are empty', async ({ page }) => {
    await openQuoteForm(page);
    const { field, offer, yes } = quoteForm(page);
    await typeDot(page, LONE_STAR, 200);
    await expect(offer).toContainText('Is this your company?');
    await expect(offer).toContainText('LONE STAR HAULERS, LLC');
    await expect(offer).toContainText('AUSTIN, TX');
    await expect(offer).toContainText('12 power units');
    await expect(offer).not.toContainText('555');
    await yes.click();
    await expect(field('company')).toHaveValue('LONE STAR HAULERS, LLC');
    await expect(field('vehicle_count')).toHaveValue('12');
    await expect(offer).toBeEmpty();
    await expect(field('dot_number')).toBeFocused();
  });

  test('Yes never overwrites what the visitor typed', async ({ page }) => {
    await openQuoteForm(page);
    const { field, offer, yes } = quoteForm(page);
    await field('company').fill('Red River Haulers');
    await typeDot(page, LONE_STAR, 200);
    await expect(offer).toContainText('LONE STAR HAULERS, LLC');
    await yes.click();
    await expect(field('company')).toHaveValue('Red River Haulers');
    await expect(field('vehicle_count')).toHaveValue('12');

    // Typed vehicles are kept too.
    await field('vehicle_count').fill('3');
    await field('dot_number').fill('');
    await typeDot(page, '3333333', 200);
    await expect(offer).toContainText('ACME HAZMAT, INC.');
    await yes.click();
    await expect(field('company')).toHaveValue('Red River Haulers');
    await expect(field('vehicle_count')).toHaveValue('3');
  });

  test('No dismisses the offer, by keyboard, and leaving the field does not bring it back', async ({ page }) => {
    await openQuoteForm(page);
    const { field, offer, no, answer } = quoteForm(page);
    await typeDot(page, LONE_STAR, 200);
    await expect(answer).toHaveValue('unanswered');
    await expect(offer).toContainText('LONE STAR HAULERS, LLC');
    // From the DOT field, Tab reaches Yes, then No.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(no).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(offer).toBeEmpty();
    // Posted with the quote: the lead keeps no snapshot of a carrier the visitor said is not theirs.
    await expect(answer).toHaveValue('no');
    await expect(field('dot_number')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(field('dot_number')).not.toBeFocused();
    await expect(offer).toBeEmpty();
    await expect(field('company')).toHaveValue('');
    await expect(field('vehicle_count')).toHaveValue('');
  });

  test('going back to a number offers its answer again without asking the server', async ({ page }) => {
    await openQuoteForm(page);
    const { field, offer, lookup } = quoteForm(page);
    await typeDot(page, LONE_STAR, 200);
    await expect(offer).toContainText('LONE STAR HAULERS, LLC');
    await field('dot_number').fill('');
    await typeDot(page, '3333333', 200);
    await expect(offer).toContainText('ACME HAZMAT, INC.');
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/carriers/')) asked.push(request.url());
    });
    await field('dot_number').fill('');
    await field('dot_number').pressSequentially(LONE_STAR);
    await field('dot_number').blur();
    await expect(lookup).toHaveAttribute('data-lookup', 'done');
    await expect(offer).toContainText('LONE STAR HAULERS, LLC');
    expect(asked).toHaveLength(0);
  });

  test('an unknown number offers nothing', async ({ page }) => {
    await openQuoteForm(page);
    await typeDot(page, '9999999', 404);
    const { offer, yes } = quoteForm(page);
    await expect(offer).toBeEmpty();
    await expect(yes).toHaveCount(0);
  });

  test('without an imported census nothing is offered, no error is shown, and nothing more is asked', async ({ page }) => {
    await openQuoteForm(page, `http://127.0.0.1:${noCensusPort}`);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/carriers/')) asked.push(request.url());
    });
    await typeDot(page, LONE_STAR, 404);
    const { field, offer, yes, lookup } = quoteForm(page);
    // The 404 said no census is imported: another number is not asked about.
    await field('dot_number').fill('');
    await field('dot_number').pressSequentially('3333333');
    await field('dot_number').blur();
    await expect(lookup).toHaveAttribute('data-lookup', 'done');
    expect(asked).toHaveLength(1);
    await field('dot_number').fill(LONE_STAR);
    await field('dot_number').blur();
    await expect(offer).toBeEmpty();
    await expect(yes).toHaveCount(0);
    await expect(page.locator('.toast')).toHaveCount(0);
    await expect(field('dot_number')).toHaveValue(LONE_STAR);
  });
});
