import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { connectedAgent } from '../support/agent-fixtures';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { startBrowserApp, type BrowserApp } from '../support/browser-app';
import type { Harness } from '../support/harness';

// The screenshots in docs/dashboard.md: a seeded sandbox platform (customers, funded accounts, payouts that
// complete and one that fails, an agent's payment waiting for approval) shown in Debian's Chromium at
// 1400x900, written to docs/images/dashboard-*.png and made small with pngquant when it is installed
// (apt-get install pngquant). Not part of `npm test` (its name is not *.test.ts); run it with
//   npm test -- --testMatch '**/test/browser/dashboard-screenshots.shots.ts'

const OUT = join(__dirname, '../../docs/images');

let app: BrowserApp;
let h: Harness;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  app = await startBrowserApp();
  ({ h, browser, origin } = app);
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const file = join(OUT, `dashboard-${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  try {
    execFileSync('pngquant', ['--force', '--skip-if-larger', '--strip', '--quality=60-85', '--output', file, file]);
  } catch {
    // Without pngquant (or when it cannot do better) the PNG stays as Chromium wrote it.
  }
  console.log(`${file}: ${(statSync(file).size / 1024).toFixed(1)} KB`);
}

test('screenshots of Home, Payments, a payment, Webhooks and Approvals', async () => {
  mkdirSync(OUT, { recursive: true });
  const p = await h.platform();
  const people = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'];
  const accounts: { customerId: string; usd: string }[] = [];
  for (const [i, fullName] of people.entries()) {
    const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `customer-${i + 1}`, fullName });
    const customerId = customer.body.id as string;
    const usd = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
    expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 250_000 * (i + 1) })).status).toBe(200);
    accounts.push({ customerId, usd });
  }
  // Payouts: most complete (IBAN ending 000), one fails (007).
  const payouts: string[] = [];
  for (const [i, amount] of [12_500, 48_000, 7_250, 99_900, 15_000].entries()) {
    const { customerId, usd } = accounts[i % accounts.length]!;
    // An account number of its own per payout (a customer cannot add the same IBAN twice).
    const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', `3704004405320${i}1${i === 3 ? '007' : '000'}`)) });
    const quote = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    expect(quote.status).toBe(201);
    expect((await p.api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
    payouts.push(quote.body.transactionId as string);
  }
  for (const id of payouts) {
    await eventually(
      () => p.api.get(`/transactions/${encodeURIComponent(id)}`).then((r) => r.body),
      (t) => ['COMPLETED', 'FAILED', 'REFUNDED'].includes(t.status),
      60_000,
    );
  }
  // An agent's payment waiting for the platform's approval.
  const { customerId, usd } = accounts[0]!;
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532099000')) });
  const { agent } = await connectedAgent(
    h,
    p.api,
    customerId,
    {
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
    },
    'Payroll bot',
  );
  const quote = await agent.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 32_000,
  });
  expect((await agent.post(`/agents/me/quotes/${quote.body.id}/execute`)).body.status).toBe('PENDING_APPROVAL');

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${origin}/dashboard/`);
  await page.getByLabel('Token id').fill(p.token.tokenId);
  await page.getByLabel('Client secret').fill(p.token.clientSecret);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 2, name: 'Balances' }).waitFor({ timeout: 20_000 });
  await page.locator('.chart svg').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'home');

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Payments', exact: true }).click();
  await page.getByTestId('payment-row').first().waitFor();
  await shoot(page, 'payments');

  await page.goto(`${origin}/dashboard/payments/${encodeURIComponent(payouts[0]!)}`);
  await page
    .getByRole('table', { name: 'Webhooks of this payment' })
    .getByRole('cell', { name: 'OUTGOING_PAYMENT.COMPLETED', exact: true })
    .waitFor({ timeout: 30_000 });
  await shoot(page, 'payment');

  await nav.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByTestId('webhook-event-row').first().waitFor();
  await page.getByTestId('webhook-event-row').first().getByRole('button').click();
  await page.getByRole('table', { name: 'Delivery attempts' }).locator('tbody tr').first().waitFor();
  await shoot(page, 'webhooks');

  await nav.getByRole('link', { name: 'Approvals', exact: true }).click();
  await page.getByTestId('agent-action').first().waitFor();
  await shoot(page, 'approvals');
  await context.close();
}, 300_000);
