import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../src/api/app';
import { Transaction } from '../../src/contexts/payments/entities';
import { connectedAgent } from '../support/agent-fixtures';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { BASE, Harness } from '../support/harness';

// The operators' dashboard (dashboard/, served at /dashboard) in a real browser, with the network cut
// off: every request to a host other than this machine is refused and counted, and every CSP refusal the
// browser reports fails the test. bin/test builds dashboard/dist before jest starts.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const ROOT = join(__dirname, '../..');
const AXE = join(ROOT, 'dashboard/node_modules/axe-core/axe.min.js');

let h: Harness;
let server: Server;
let browser: Browser;
let origin: string;
let owner: Awaited<ReturnType<Harness['platform']>>;
const offHost: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH. This test does not skip.`,
    );
  }
  if (!existsSync(join(ROOT, 'dashboard/dist/index.html')) || !existsSync(AXE)) {
    throw new Error('The dashboard is not built: run `npm run dashboard:build` (bin/test does it before jest).');
  }
  h = await Harness.start();
  server = await new Promise<Server>((resolve) => {
    const s = h.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  owner = await h.platform();
}, 120_000);

afterAll(async () => {
  await shared?.context.close();
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await h?.stop();
});

/** A fresh browser profile (no cookie) whose off-host requests are refused and whose CSP reports are kept. */
async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { context, page };
}

/** The owner's signed-in page, shared by the tests that only need to be signed in (one sign-in for all of them). */
let shared: { context: BrowserContext; page: Page } | undefined;
async function ownerPage(): Promise<Page> {
  if (!shared) {
    shared = await freshPage();
    await signIn(shared.page, owner.token.tokenId, owner.token.clientSecret);
  }
  return shared.page;
}

/** The API as a partner calls it (HTTP Basic), for the endpoints beyond the reference too. */
const basic = (auth: string, path: string) => fetch(`${origin}${BASE}${path}`, { headers: { Authorization: auth } });

/** A customer of `p` with a funded USD account; the funding (INCOMING) transaction's id. */
async function fundedCustomer(p: typeof owner, amount = 100_000) {
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `dash-${randomUUID()}`, fullName: 'Ada Browser' });
  const customerId = customer.body.id as string;
  const usd = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount })).status).toBe(200);
  const funding = await h.orm.em.fork().findOneOrFail(Transaction, { destination: { accountId: usd } });
  return { customerId, usd, fundingId: funding.id };
}

/** Signs in with the keyboard alone: the token id field has focus, Tab goes to the secret, Enter submits. */
async function signIn(page: Page, tokenId: string, secret: string): Promise<void> {
  await page.goto(`${origin}/dashboard/`);
  await page.getByRole('heading', { name: /Sign in/ }).waitFor();
  await expect(page.evaluate(() => (globalThis as unknown as Browser$).document.activeElement?.name)).resolves.toBe('clientId');
  await page.keyboard.type(tokenId);
  await page.keyboard.press('Tab');
  await page.keyboard.type(secret);
  await page.keyboard.press('Enter');
  await page.getByTestId('environment').waitFor();
}

/** The page's main heading, once the page has loaded. */
/**
 * The browser globals the page functions below read (the project's tsconfig has no DOM library). Each
 * function casts `globalThis` itself: page.evaluate sends the function's source, not its closure.
 */
interface Browser$ {
  document: { activeElement: { tagName: string; textContent: string | null; name?: string } | null; cookie: string };
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 20_000 });

async function go(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  await heading(page, label);
}

/** axe-core's serious and critical violations on the page as it stands (evaluated through the driver, not an inline script). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const result = await page.evaluate(async () => {
    const g = globalThis as unknown as Browser$;
    return (await g.axe.run(g.document)).violations;
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('sign-in by keyboard: the environment is shown, the pages are reached with Tab and Enter', async () => {
  const { context, page } = await freshPage();
  const res = await page.goto(`${origin}/dashboard/`);
  // The same strict policy as the reference: same-origin scripts only, no inline script, no framing.
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  await signIn(page, owner.token.tokenId, owner.token.clientSecret);
  await expect(page.getByTestId('environment').textContent()).resolves.toBe('SANDBOX');
  // Nothing of the secret stays in the browser.
  const stored = await page.evaluate(() => {
    const g = globalThis as unknown as Browser$;
    return JSON.stringify({ ...g.localStorage }) + JSON.stringify({ ...g.sessionStorage }) + g.document.cookie;
  });
  expect(stored).not.toContain(owner.token.clientSecret);

  // Keyboard only: Tab until the Payments link has focus, then Enter.
  let found = false;
  for (let i = 0; i < 30 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(() => {
      const active = (globalThis as unknown as Browser$).document.activeElement;
      return active?.textContent === 'Payments' && active.tagName === 'A';
    });
  }
  expect(found).toBe(true);
  await page.keyboard.press('Enter');
  await heading(page, 'Payments');
  // Focus lands on the new page's heading, so the next Tab goes on from there.
  await expect(page.evaluate(() => (globalThis as unknown as Browser$).document.activeElement?.tagName)).resolves.toBe('H1');
  await context.close();
}, 90_000);

test('sandbox tools: a payout made in the browser reaches COMPLETED in the list, with its webhooks', async () => {
  const { context, page } = await freshPage();
  await signIn(page, owner.token.tokenId, owner.token.clientSecret);
  await go(page, 'Sandbox tools');
  await page.getByRole('button', { name: 'Create a test customer' }).click();
  await page.getByText(/^Created /).waitFor();

  const fundForm = page.locator('section', { has: page.getByRole('heading', { name: /Fund an account/ }) });
  const usd = fundForm.getByLabel('Account');
  await usd
    .locator('option', { hasText: /^USD account of Customer:/ })
    .first()
    .waitFor({ state: 'attached' });
  const usdValue = await usd
    .locator('option', { hasText: /^USD account of Customer:/ })
    .first()
    .getAttribute('value');
  await usd.selectOption(usdValue!);
  await fundForm.getByLabel('Amount').fill('1000.00');
  await fundForm.getByRole('button', { name: 'Fund the account' }).click();
  await fundForm.getByText(/^Funded: 1,000\.00 USD available/).waitFor();

  const payoutForm = page.locator('section', { has: page.getByRole('heading', { name: /Send a payout/ }) });
  await payoutForm.getByLabel('From account').selectOption(usdValue!);
  await payoutForm.getByLabel('Amount').fill('100.00');
  await payoutForm.getByLabel('Scenario').selectOption('999');
  await payoutForm.getByRole('button', { name: 'Send the payout' }).click();
  await payoutForm.getByRole('link', { name: 'follow the payment' }).click();
  // The payment page polls: COMPLETED appears without a reload.
  await page.getByTestId('payment-status').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 60_000 });
  const transactionId = (await page.locator('dl.facts dd code').first().textContent())!;
  expect(transactionId).toMatch(/^Transaction:/);
  await page
    .getByRole('table', { name: 'Webhooks of this payment' })
    .getByRole('cell', { name: 'OUTGOING_PAYMENT.COMPLETED', exact: true })
    .waitFor({ timeout: 30_000 });
  // The server agrees: the payment COMPLETED, and its COMPLETED webhook among the events it caused.
  expect((await owner.api.get(`/transactions/${encodeURIComponent(transactionId)}`)).body.status).toBe('COMPLETED');
  const events = (await owner.api.get(`/webhook-events?resourceId=${encodeURIComponent(transactionId)}&limit=100`)).body.data as { type: string }[];
  expect(events.map((e) => e.type)).toContain('OUTGOING_PAYMENT.COMPLETED');

  await go(page, 'Payments');
  const row = page.getByTestId('payment-row').filter({ hasText: transactionId.replace(/^Transaction:/, '').slice(0, 8) });
  await row.getByText('COMPLETED').waitFor({ timeout: 20_000 });
  await expect(row.textContent()).resolves.toContain('100.00 USD');
  await context.close();
}, 180_000);

test('a VIEW token sees the pages with every write control disabled, and the server refuses its writes anyway', async () => {
  const created = await owner.api.post('/tokens', { name: 'viewer', permissions: ['VIEW'] });
  expect(created.status).toBe(201);
  const { context, page } = await freshPage();
  await signIn(page, created.body.clientId as string, created.body.clientSecret as string);
  for (const label of ['Customers', 'API tokens', 'Webhooks', 'Sandbox tools']) {
    await go(page, label);
    const writes = page.locator('main button[data-needs]');
    await writes.first().waitFor({ state: 'attached' });
    const enabled = await writes.evaluateAll((buttons) => buttons.filter((b) => !(b as unknown as { disabled: boolean }).disabled).map((b) => b.textContent));
    expect({ label, enabled }).toEqual({ label, enabled: [] });
  }
  // Past the disabled button: the session's own CSRF token, a write the token may not make.
  const status = await page.evaluate(async (base) => {
    const session = (await (await fetch(`${base}/dashboard/session`, { credentials: 'same-origin' })).json()) as { csrfToken: string };
    const res = await fetch(`${base}/customers`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'view-write', fullName: 'No Write' }),
    });
    return res.status;
  }, BASE);
  expect(status).toBe(403);
  expect((await owner.api.get('/customers?platformCustomerId=view-write')).body.data).toEqual([]);
  await context.close();
}, 120_000);

test('axe-core finds no serious or critical violation on any page', async () => {
  const { context, page } = await freshPage();
  await page.goto(`${origin}/dashboard/`);
  await heading(page, /Sign in/);
  const found: Record<string, string[]> = { 'Sign in': await axeViolations(page) };
  await signIn(page, owner.token.tokenId, owner.token.clientSecret);
  await page.getByRole('heading', { level: 2, name: 'Balances' }).waitFor({ timeout: 20_000 });
  found.Home = await axeViolations(page);
  for (const label of ['Payments', 'Approvals', 'Webhooks', 'Customers', 'Sandbox tools', 'API tokens', 'Agents', 'Cards', 'Settings']) {
    await go(page, label);
    await page.waitForLoadState('networkidle');
    found[label] = await axeViolations(page);
  }
  // A payment's and a customer's own pages.
  const tx = (await owner.api.get('/transactions?limit=1')).body.data[0] as { id: string } | undefined;
  if (tx) {
    await page.goto(`${origin}/dashboard/payments/${encodeURIComponent(tx.id)}`);
    await heading(page, /Payment/);
    await page.waitForLoadState('networkidle');
    found.Payment = await axeViolations(page);
  }
  const customer = (await owner.api.get('/customers?limit=1')).body.data[0] as { id: string } | undefined;
  if (customer) {
    await page.goto(`${origin}/dashboard/customers/${encodeURIComponent(customer.id)}`);
    await page.getByRole('heading', { level: 2, name: 'Internal accounts' }).waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    found.Customer = await axeViolations(page);
  }
  expect(Object.fromEntries(Object.entries(found).filter(([, v]) => v.length > 0))).toEqual({});
  await context.close();
}, 180_000);

test('sign-out ends the session on the server: the cookie no longer opens the API, a reload shows sign-in', async () => {
  const { context, page } = await freshPage();
  await signIn(page, owner.token.tokenId, owner.token.clientSecret);
  const cookies = await context.cookies(origin);
  expect(cookies.length).toBeGreaterThan(0);
  expect(cookies.every((c) => c.httpOnly && c.sameSite === 'Strict')).toBe(true);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await heading(page, /Sign in/);
  await page.getByText('You are signed out.').waitFor();
  // The old cookie, replayed: the server ended the session, whatever the browser kept.
  const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  expect((await fetch(`${origin}${BASE}/dashboard/session`, { headers: { Cookie: header } })).status).toBe(401);
  expect((await fetch(`${origin}${BASE}/transactions`, { headers: { Cookie: header } })).status).toBe(401);
  await page.reload();
  await heading(page, /Sign in/);
  await context.close();
}, 60_000);

test("the build's own files (Vite's manifest, the build stamp) are not served, only the app and its assets", async () => {
  expect(existsSync(join(ROOT, 'dashboard/dist/.vite/manifest.json'))).toBe(true);
  const manifest = await fetch(`${origin}/dashboard/.vite/manifest.json`);
  expect(manifest.status).toBe(404);
  expect(await manifest.text()).not.toContain('"isEntry"');
  expect(await (await fetch(`${origin}/dashboard/.build-hash`)).text()).not.toContain(readFileSync(join(ROOT, 'dashboard/dist/.build-hash'), 'utf8').trim());
});

test('the CSP held and nothing left the host in any of the above', () => {
  expect(offHost).toEqual([]);
  expect(problems).toEqual([]);
});
