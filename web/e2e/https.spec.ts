// Built-in HTTPS (issue 38) in a real browser: the release binary with `tls_domains`, its certificate ordered from
// Debian's pebble on loopback, and Chromium loading the home page over HTTP/2. Run by the `https` project only
// (playwright.config.ts), which maps the test's name to 127.0.0.1 (--host-resolver-rules). The certificate is
// verified here against pebble's root (Node); Chromium, which cannot be handed that root without a certificate
// database of its own, ignores certificate errors.
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Processes, freePort, httpsGet, listening, missingTools, startPebble } from './pebble';

// The name on the certificate; playwright.config.ts's `https` project maps it to 127.0.0.1.
const httpsName = 'agency.example';
const binary = path.resolve(process.env.E2E_BINARY ?? '../target/release/truckins');

test.setTimeout(90_000);

test('the home page over HTTPS/2 with a certificate from the ACME server', async ({ page }) => {
  const missing = missingTools();
  // Under tests/run.sh (PEBBLE_REQUIRED, which installs pebble) a missing tool is a failure, not a skip.
  if (missing.length > 0 && process.env.PEBBLE_REQUIRED) throw new Error(`missing: ${missing.join(', ')}`);
  test.skip(
    missing.length > 0,
    `SKIPPED: the HTTPS browser test needs ${missing.join(', ')} (apt-get install pebble openssl); tests/run.sh installs them`,
  );

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'truckins-e2e-https-'));
  const processes = new Processes();
  try {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const pebble = await startPebble(processes, dir, httpPort, httpsPort);
    const serverLog = path.join(dir, 'server.log');
    const server = processes.start(binary, ['serve', '--address', '127.0.0.1', '--database', path.join(dir, 'leads.db')], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TRUCKINS_TLS_DOMAINS: httpsName,
        TRUCKINS_HTTP_PORT: String(httpPort),
        TRUCKINS_HTTPS_PORT: String(httpsPort),
        TRUCKINS_ACME_DIRECTORY: pebble.directory,
        TRUCKINS_ACME_CA_ROOT: pebble.apiCa,
      },
      log: serverLog,
    });
    await listening(httpPort, 'the server', server);
    const root = await pebble.root();

    // The certificate: /healthz over HTTPS, verified against pebble's root for the name, until it says valid.
    const deadline = Date.now() + 60_000;
    let health: { tls?: { certificate?: string } } = {};
    for (;;) {
      try {
        health = JSON.parse(await httpsGet(httpsPort, '/healthz', root, httpsName));
        if (health.tls?.certificate === 'valid') break;
      } catch {
        // No certificate yet: the handshake fails.
      }
      if (Date.now() > deadline || server.exitCode !== null) {
        throw new Error(`no certificate within a minute: ${JSON.stringify(health)}\n${fs.readFileSync(serverLog, 'utf8')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const response = await page.goto(`https://${httpsName}:${httpsPort}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['strict-transport-security']).toContain('max-age=31536000');
    const protocol = await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
    );
    expect(protocol).toBe('h2');
    const security = await response?.securityDetails();
    expect(security?.subjectName).toBe(httpsName);
    expect(security?.issuer).toMatch(/pebble/i);
    await expect(page.locator('h1')).toBeVisible();
    await expect(page.locator('h1')).not.toBeEmpty();
  } finally {
    await processes.stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
