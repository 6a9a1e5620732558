// `truckins leads proof ID --format html` (issue 25): one lead's proof of consent, printed the way an agency hands it
// to a lawyer. The real CLI writes it from the suite's database; Chromium lays it out, prints it to PDF and must
// need one sheet, and it loads nothing from anywhere (every request it would make is counted).
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { database } from '../playwright.config';
import { uniqueEmail } from './leads';

const binary = process.env.E2E_BINARY ?? '../target/release/truckins';

test('the proof of consent prints on one page and loads nothing', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'desktop', 'a printed page has no viewport: once is enough');
  const email = uniqueEmail(info, 'proof');
  const quote = await request.post('/api/leads/quote', {
    headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' },
    data: {
      name: 'Maria Lopez-Garcia',
      email,
      phone: '(214) 555-0142',
      company: 'Lopez & Sons Hauling',
      insurance_type: 'hotshot',
      vehicle_count: 3,
      dot_number: '1234567',
      consent: true,
      page_url: 'https://www.example.com/products/hot-shot-insurance?utm_source=google&utm_campaign=hotshot-fall',
    },
  });
  expect(quote.status()).toBe(201);
  const { id } = (await quote.json()) as { id: number };
  const optOut = await request.post('/api/opt-out', { data: { email, note: 'Called to say: no more texts, please.' } });
  expect(optOut.status()).toBe(201);

  const html = execFileSync(binary, ['leads', 'proof', String(id), '--format', 'html', '--database', database], {
    encoding: 'utf8',
  });
  const requests: string[] = [];
  page.on('request', (sent) => requests.push(sent.url()));
  await page.setContent(html);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Proof of consent: lead #${id}`);
  await expect(page.getByText('By checking this box')).toBeVisible();
  await expect(page.getByText(/after the consent\), by web/)).toBeVisible();
  const pdf = await page.pdf({ format: 'Letter', preferCSSPageSize: true });
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length, 'printed sheets').toBe(1);
  expect(requests, 'requests the proof made').toEqual([]);
});
