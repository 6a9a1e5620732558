// The browser suite: Debian's Chromium (a test tool's own browser download does not work here) driving the real
// release binary on a loopback port, at a phone and a desktop size. tests/run.sh builds the binary and picks the port.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8765);
const binary = process.env.E2E_BINARY ?? '../target/release/truckins';
// The suite's own database, emptied by tests/run.sh; the forms' tests read it back through `truckins leads export`.
export const database = process.env.E2E_DATABASE ?? '/tmp/truckins-e2e/leads.db';
// The carrier census the suite's server looks DOT numbers up in: a small file in FMCSA's format, imported (into
// carriers.db beside the leads) before the server starts. A second server, beside a folder with no census, shows
// the quote form as it is before any import.
const census = '../tests/fixtures/census.csv';
export const noCensusPort = Number(process.env.E2E_NO_CENSUS_PORT ?? port + 1);
const noCensusDatabase = database.replace(/[^/]*$/, 'no-census/leads.db');

const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath, args: chromiumArgs },
  },
  projects: [
    { name: 'phone', testIgnore: 'https.spec.ts', use: { viewport: { width: 390, height: 844 }, hasTouch: true } },
    { name: 'desktop', testIgnore: 'https.spec.ts', use: { viewport: { width: 1280, height: 800 } } },
    // Built-in HTTPS (e2e/https.spec.ts, its own server and ACME server): once, at the desktop size, with the
    // certificate's name resolved to loopback. The certificate is checked against the ACME server's root in the
    // test itself; Chromium is told to accept it.
    {
      name: 'https',
      testMatch: 'https.spec.ts',
      use: {
        viewport: { width: 1280, height: 800 },
        ignoreHTTPSErrors: true,
        launchOptions: { executablePath, args: [...chromiumArgs, '--host-resolver-rules=MAP agency.example 127.0.0.1'] },
      },
    },
  ],
  webServer: [
    {
      // High per-IP limits: every test posts and looks up from 127.0.0.1; the limits themselves are tested in Rust.
      command:
        `{ ${binary} carriers import ${census} --database ${database} >/dev/null 2>&1 || { echo 'the census import failed' >&2; exit 1; }; } && ` +
        `TRUCKINS_CARRIER_LOOKUP_LIMIT=10000 exec ${binary} serve --address 127.0.0.1 --port ${port} --database ${database} --ip-limit 10000`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `exec ${binary} serve --address 127.0.0.1 --port ${noCensusPort} --database ${noCensusDatabase}`,
      url: `http://127.0.0.1:${noCensusPort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
