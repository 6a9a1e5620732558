// The browser suite: Debian's Chromium (a test tool's own browser download does not work here) driving the real
// release binary on a loopback port, at a phone and a desktop size. tests/run.sh builds the binary and picks the port.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8765);
const binary = process.env.E2E_BINARY ?? '../target/release/truckins';
// The suite's own database, emptied by tests/run.sh; the forms' tests read it back through `truckins leads export`.
export const database = process.env.E2E_DATABASE ?? '/tmp/truckins-e2e/leads.db';

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'phone', use: { viewport: { width: 390, height: 844 }, hasTouch: true } },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // A high per-IP limit: every test posts from 127.0.0.1; the limit itself is tested in Rust.
    command: `${binary} serve --address 127.0.0.1 --port ${port} --database ${database} --ip-limit 10000`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
