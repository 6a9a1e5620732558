// Shared by the browser tests of the forms: the leads and opt-outs stored under an address (read back with the real
// CLI), an address and a phone number no other test uses, and what a form needs before a person's submission is
// taken (its hydration, and the page's clock past the server's too-fast check).
import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { database } from '../playwright.config';

const binary = process.env.E2E_BINARY ?? '../target/release/truckins';

/** The stored leads with this address (as `leads export --format json` writes them). */
export function leadsFor(email: string): Record<string, unknown>[] {
  const json = execFileSync(binary, ['leads', 'export', '--format', 'json', '--database', database], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(json) as Record<string, unknown>[]).filter((lead) => lead.email === email);
}

/** An address no other test (or project, or run) uses; lowercase, as the server stores it. */
export function uniqueEmail(info: TestInfo, label: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${label}-${info.project.name}-${Date.now().toString(36)}-${random}@example.com`;
}

/**
 * Installs Playwright's clock in the page, running at the real pace (timers, animation frames and performance.now()
 * go on as usual), so that `pastTooFast` can move the page's time on instead of waiting for it. Call before the page
 * with the form is opened.
 */
export async function movableClock(page: Page) {
  await page.clock.install();
}

/**
 * The server marks a lead sent under 1.5 s after the page began to load as suspected spam (the forms send
 * performance.now()): stored, but never confirmed to the visitor. Moves the page's clock (installed by
 * `movableClock`, or paused by wcag-helpers' `pausedClock`) 2 s on, firing whatever falls due on the way, and checks
 * that the page reads past the guard, so a test's lead is a person's. Waiting the 1.5 s out instead cost every form
 * test that long, in both projects. The opt-out form needs none of it: the timer never applies to it.
 */
export async function pastTooFast(page: Page) {
  await page.clock.fastForward(2000);
  await expect.poll(() => page.evaluate(() => performance.now()), { message: 'the page has been open 1.6 s' }).toBeGreaterThan(1600);
}

/** Waits until React has hydrated the form (its props are on the element). */
export async function formHydrated(form: Locator) {
  await expect
    .poll(() => form.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))), {
      message: 'React has hydrated the form',
    })
    .toBe(true);
}

/** An opt-out as `truckins optout list --format json` writes it (the fields these tests look at). */
export interface StoredOptOut {
  email: string | null;
  /** E.164, `+12145550199`. */
  phone: string | null;
  channel: string;
  created_at: string;
  page_url: string | null;
  note: string | null;
}

/** The stored opt-outs with this e-mail address, read back with the real CLI (`optout list`). */
export function optOutsFor(email: string): StoredOptOut[] {
  const json = execFileSync(binary, ['optout', 'list', '--format', 'json', '--database', database], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(json) as StoredOptOut[]).filter((optOut) => optOut.email === email);
}

/** A US number no other test (or run) is likely to use, as a person types it, and as the server stores it. */
export function uniquePhone(): { typed: string; e164: string } {
  // The area code and the exchange start with 2-9, as the server requires; 9 million numbers to draw from.
  const exchange = 200 + Math.floor(Math.random() * 800);
  const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  return { typed: `(555) ${exchange}-${line}`, e164: `+1555${exchange}${line}` };
}
