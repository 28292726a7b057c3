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

  // An incoming UMA payment to the same account, from a sandbox sender: approved by the platform's endpoint, credited.
  const receiveForm = page.locator('section', { has: page.getByRole('heading', { name: /Receive a payment/ }) });
  await receiveForm.getByLabel('To account').selectOption(usdValue!);
  await receiveForm.getByLabel('Amount').fill('25.00');
  await receiveForm.getByRole('button', { name: 'Receive the payment' }).click();
  await receiveForm.getByText(/^Received: the payment is COMPLETED/).waitFor({ timeout: 30_000 });
  const incomingHref = (await receiveForm.getByRole('link', { name: 'Open the incoming payment' }).getAttribute('href'))!;
  const incomingId = decodeURIComponent(incomingHref.replace(/^.*\/payments\//, ''));
  const incoming = (await owner.api.get(`/transactions/${encodeURIComponent(incomingId)}`)).body;
  expect(incoming).toMatchObject({
    type: 'INCOMING',
    status: 'COMPLETED',
    source: { sourceType: 'UMA_ADDRESS' },
    receivedAmount: { amount: 2_500 },
  });
  const credited = (await owner.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(incoming.customerId)}&currency=USD`)).body.data;
  expect(credited.map((a: { id: string; balance: { amount: number } }) => [a.id, a.balance.amount])).toEqual([[usdValue, 102_500]]);

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
  // Each event names what it is about: this payment, linked to its page.
  const completedEvent = page
    .getByRole('table', { name: 'Webhooks of this payment' })
    .getByTestId('webhook-event-row')
    .filter({ has: page.getByRole('cell', { name: 'OUTGOING_PAYMENT.COMPLETED', exact: true }) });
  const resourceHref = (await completedEvent.getByRole('link', { name: transactionId, exact: true }).getAttribute('href'))!;
  expect(decodeURIComponent(resourceHref)).toBe(`/dashboard/payments/${transactionId}`);
  // Its ledger entries: the 100.00 USD held from the customer's account (a debit), then settled.
  const ledger = page.getByRole('table', { name: 'Ledger entries' });
  await ledger.getByRole('cell', { name: 'Outgoing payment settled', exact: true }).waitFor({ timeout: 30_000 });
  const held = ledger.getByTestId('ledger-posting').filter({ hasText: usdValue! });
  await expect(held.textContent()).resolves.toMatch(/^.*Outgoing payment: funds held.*100\.00 USD$/);
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
  // The Cards page offers no card action at all to a token that may not make them (the owner's has an Actions column).
  await go(page, 'Cards');
  await page.getByRole('table', { name: 'Cards' }).waitFor();
  await expect(page.getByRole('columnheader', { name: 'Actions' }).count()).resolves.toBe(0);
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

test('resend a webhook from the Webhooks page: a second delivery attempt is recorded and the receiver gets the same event again', async () => {
  const { fundingId } = await fundedCustomer(owner);
  const delivered = await eventually(
    () =>
      basic(owner.auth, `/webhook-events?resourceId=${encodeURIComponent(fundingId)}&type=INCOMING_PAYMENT.COMPLETED`).then(
        (r) => r.json() as Promise<{ data: { id: string; state: string }[] }>,
      ),
    (body) => body.data[0]?.state === 'DELIVERED',
  );
  const eventId = delivered.data[0]!.id;
  const copies = () => h.receiver.received.filter((w) => w.body.id === eventId);
  expect(copies()).toHaveLength(1);

  const page = await ownerPage();
  await go(page, 'Webhooks');
  const filters = page.getByRole('form', { name: 'Filter webhook events' });
  await filters.getByLabel('Type').fill('INCOMING_PAYMENT.COMPLETED');
  await filters.getByLabel('Resource id').fill(fundingId);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  const events = page.getByRole('table', { name: 'Webhook events' });
  // The filtered list: this payment's one event (the owner has others).
  await eventually(
    () => events.getByTestId('webhook-event-row').count(),
    (n) => n === 1,
    20_000,
  );
  await events.getByTestId('webhook-event-row').getByRole('link', { name: fundingId, exact: true }).waitFor();
  await events.getByRole('button', { name: 'Show attempts of INCOMING_PAYMENT.COMPLETED' }).click();
  const attempts = page.getByRole('table', { name: 'Delivery attempts' }).locator('tbody tr');
  await attempts.first().waitFor();
  await expect(attempts.count()).resolves.toBe(1);
  await page.getByRole('button', { name: 'Resend this event' }).click();
  await page.getByText('Queued for delivery again.').waitFor();
  // The page shows the second attempt when it is recorded (its detail polls), and the server holds it.
  await eventually(
    () => attempts.count(),
    (n) => n === 2,
    20_000,
  );
  const detail = (await (await basic(owner.auth, `/webhook-events/${encodeURIComponent(eventId)}`)).json()) as {
    attempts: number;
    deliveryAttempts: unknown[];
  };
  expect([detail.attempts, detail.deliveryAttempts.length]).toEqual([2, 2]);
  await h.receiver.waitFor(() => copies().length === 2);
  expect(copies()[1]!.rawBody).toBe(copies()[0]!.rawBody);
}, 90_000);

test("approve an agent's action in the Approvals page: the held payment is executed", async () => {
  const funds = 100_000;
  const { customerId, usd } = await fundedCustomer(owner, funds);
  const bank = await owner.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013000')) });
  expect(bank.status).toBe(201);
  const { agent } = await connectedAgent(h, owner.api, customerId, {
    permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
    defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
  });
  const quote = await agent.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  expect(quote.status).toBe(201);
  const held = await agent.post(`/agents/me/quotes/${quote.body.id}/execute`);
  expect([held.status, held.body.status]).toEqual([200, 'PENDING_APPROVAL']);
  const actionId = held.body.id as string;
  const transactionId = quote.body.transactionId as string;

  const page = await ownerPage();
  await go(page, 'Approvals');
  const card = page
    .getByTestId('agent-action')
    .filter({ hasText: '100.00 USD' })
    .filter({ has: page.getByRole('button', { name: `Approve action ${actionId}` }) });
  await card.getByRole('button', { name: `Approve action ${actionId}` }).click();
  await page.getByText('The action is now APPROVED.').waitFor();
  await card.waitFor({ state: 'detached' });

  const action = await agent.get(`/agents/me/actions/${actionId}`);
  expect(action.body).toMatchObject({ status: 'APPROVED', transaction: { id: transactionId } });
  await eventually(
    () => owner.api.get(`/transactions/${encodeURIComponent(transactionId)}`).then((r) => r.body),
    (t) => t.status === 'COMPLETED',
    60_000,
  );
  const account = (await owner.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0];
  expect(account.balance.amount).toBe(funds - 10_000);
}, 120_000);

test('rotate the signing key in the Webhooks page: a new current key, the previous one kept for the overlap', async () => {
  const before = (await owner.api.get('/webhooks/public-key')).body as { keys: { id: string; validUntil: string | null }[] };
  const current = before.keys.find((k) => k.validUntil === null)!;
  const page = await ownerPage();
  await go(page, 'Webhooks');
  await page.getByLabel('Previous key keeps signing for (seconds)').fill('3600');
  await page.getByRole('button', { name: 'Rotate the signing key' }).click();
  await page.getByText('Rotated: a new key signs from now.').waitFor();

  const after = (await owner.api.get('/webhooks/public-key')).body as { keys: { id: string; validUntil: string | null }[] };
  const next = after.keys.find((k) => k.validUntil === null)!;
  expect(next.id).not.toBe(current.id);
  const previous = after.keys.find((k) => k.id === current.id)!;
  expect(Date.parse(previous.validUntil!) - Date.now()).toBeGreaterThan(3_500_000);
  expect(Date.parse(previous.validUntil!) - Date.now()).toBeLessThanOrEqual(3_600_000);
  // The page lists what the server holds.
  await page.getByTestId('signing-key').filter({ hasText: next.id }).getByText('current').waitFor();
}, 60_000);

test('create an API token (its secret shown once) and revoke it: its Basic authentication is then refused', async () => {
  const name = `browser-${randomUUID().slice(0, 8)}`;
  const page = await ownerPage();
  await go(page, 'API tokens');
  const form = page.locator('section', { has: page.getByRole('heading', { name: 'Create a token' }) });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('TRANSACT').check();
  await form.getByRole('button', { name: 'Create token' }).click();
  const clientId = (await page.getByTestId('new-token-id').textContent())!;
  const clientSecret = (await page.getByTestId('new-token-secret').textContent())!;
  expect(clientSecret.length).toBeGreaterThan(20);
  const auth = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  expect((await basic(auth, '/transactions?limit=1')).status).toBe(200);
  const listed = (await owner.api.get('/tokens?limit=100')).body.data.find((t: { name: string }) => t.name === name);
  expect(listed).toMatchObject({ clientId, permissions: expect.arrayContaining(['VIEW', 'TRANSACT']) });
  expect(listed.clientSecret).toBeUndefined();

  // Shown once: dismissed, it is nowhere on the page, and coming back does not bring it.
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await go(page, 'Payments');
  await go(page, 'API tokens');
  const row = page.getByTestId('token-row').filter({ hasText: name });
  await row.waitFor();
  await expect(page.locator('body').textContent()).resolves.not.toContain(clientSecret);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await row.waitFor({ state: 'detached' });
  expect((await basic(auth, '/transactions?limit=1')).status).toBe(401);
  expect((await owner.api.get('/tokens?limit=100')).body.data.map((t: { name: string }) => t.name)).not.toContain(name);
}, 60_000);

test("edit a customer beyond email: name, phone and address are saved as the API's PATCH takes them; refusals list every field", async () => {
  const created = await owner.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `edit-${randomUUID()}`, fullName: 'Before Edit' });
  const customerId = created.body.id as string;
  const page = await ownerPage();
  await page.goto(`${origin}/dashboard/customers/${encodeURIComponent(customerId)}`);
  const form = page.getByRole('form', { name: 'Edit the customer' });
  await form.getByLabel('Full name').waitFor({ timeout: 20_000 });
  await form.getByLabel('Full name').fill('After Edit');
  await form.getByLabel('Phone number').fill('+14155550123');
  await form.getByLabel('Address line 1').fill('1 Market St');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('Country').fill('US');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByText('Saved.').waitFor();
  expect((await owner.api.get(`/customers/${encodeURIComponent(customerId)}`)).body).toMatchObject({
    fullName: 'After Edit',
    phoneNumber: '+14155550123',
    address: { line1: '1 Market St', city: 'San Francisco', postalCode: '94105', country: 'US' },
  });
  await page.getByRole('heading', { level: 1, name: 'After Edit' }).waitFor();

  // Email and phone together, and a nationality that is no country: the API's refusal, every field listed, nothing stored.
  await form.getByLabel('Email').fill('after@example.com');
  await form.getByLabel('Phone number').fill('+14155550199');
  await form.getByLabel('Nationality').fill('XX');
  await form.getByRole('button', { name: 'Save' }).click();
  const alert = form.getByRole('alert');
  await alert.waitFor();
  await expect(alert.locator('li code').allTextContents()).resolves.toEqual(expect.arrayContaining(['email', 'phoneNumber', 'nationality']));
  expect((await owner.api.get(`/customers/${encodeURIComponent(customerId)}`)).body).toMatchObject({ phoneNumber: '+14155550123' });
}, 60_000);

test('freeze, unfreeze and close a card from the Cards page, offered only in the states that allow them', async () => {
  const { customerId, usd } = await fundedCustomer(owner, 10_000);
  const issued = await owner.api.post('/cards', { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [usd] });
  expect(issued.status).toBe(201);
  const cardId = issued.body.id as string;
  const cardState = () => owner.api.get(`/cards/${encodeURIComponent(cardId)}`).then((r) => r.body as { state: string; brand: string; last4: string });
  const active = await eventually(cardState, (c) => c.state === 'ACTIVE', 60_000);
  const name = `${active.brand} •••• ${active.last4}`;

  const page = await ownerPage();
  await go(page, 'Cards');
  await page.getByRole('columnheader', { name: 'Actions' }).waitFor();
  const row = page.getByRole('table', { name: 'Cards' }).getByTestId('list-row').filter({ hasText: name });
  await row.getByRole('button', { name: `Freeze ${name}`, exact: true }).click();
  await row.getByRole('button', { name: `Unfreeze ${name}`, exact: true }).waitFor({ timeout: 20_000 });
  expect((await cardState()).state).toBe('FROZEN');
  await expect(row.getByRole('button', { name: `Freeze ${name}`, exact: true }).count()).resolves.toBe(0);
  await row.getByRole('button', { name: `Unfreeze ${name}`, exact: true }).click();
  await row.getByRole('button', { name: `Freeze ${name}`, exact: true }).waitFor({ timeout: 20_000 });
  expect((await cardState()).state).toBe('ACTIVE');
  // Closing cannot be undone: it asks once more, then the card has no action left.
  await row.getByRole('button', { name: `Close ${name}`, exact: true }).click();
  await row.getByRole('button', { name: `Confirm closing ${name}`, exact: true }).click();
  await row.getByText('CLOSED', { exact: true }).waitFor({ timeout: 20_000 });
  await expect(row.getByRole('button').count()).resolves.toBe(0);
  expect((await cardState()).state).toBe('CLOSED');
  // The cardholder's page lists the card with its state.
  await page.goto(`${origin}/dashboard/customers/${encodeURIComponent(customerId)}`);
  await page
    .getByRole('table', { name: 'Cards' })
    .getByRole('row')
    .filter({ hasText: cardId })
    .getByText('CLOSED', { exact: true })
    .waitFor({ timeout: 20_000 });
}, 120_000);

test("another platform's payment id typed into the URL shows not found, and nothing of it", async () => {
  const other = await h.platform();
  const { fundingId } = await fundedCustomer(other, 4_242);
  const page = await ownerPage();
  await page.goto(`${origin}/dashboard/payments/${encodeURIComponent(fundingId)}`);
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 20_000 });
  await expect(alert.textContent()).resolves.toMatch(/^TRANSACTION_NOT_FOUND/);
  await expect(page.locator('main').textContent()).resolves.not.toContain('42.42');
  // The server says the same to the owner's session and to its Basic credentials.
  expect((await owner.api.get(`/transactions/${encodeURIComponent(fundingId)}`)).status).toBe(404);
}, 60_000);

test('a session left idle past its timeout ends: the open page goes back to sign-in, the cookie is refused', async () => {
  // Its own app: a one-minute idle timeout and a clock the test moves (the shared throttle and rate limit stay per app).
  let skew = 0;
  const idleApp = createApp({ ...h.deps, now: () => Date.now() + skew, dashboard: { session: { idleTimeoutMs: 60_000, absoluteTimeoutMs: 3_600_000 } } });
  const idleServer = await new Promise<Server>((resolve) => {
    const s = idleApp.listen(0, '127.0.0.1', () => resolve(s));
  });
  const idleOrigin = `http://127.0.0.1:${(idleServer.address() as AddressInfo).port}`;
  const { context, page } = await freshPage();
  try {
    await page.goto(`${idleOrigin}/dashboard/`);
    await page.getByRole('heading', { name: /Sign in/ }).waitFor();
    await page.getByLabel(/token id/i).fill(owner.token.tokenId);
    await page.getByLabel(/secret/i).fill(owner.token.clientSecret);
    await page.keyboard.press('Enter');
    await page.getByTestId('environment').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments', exact: true }).click();
    await heading(page, 'Payments');
    const cookies = await context.cookies(idleOrigin);
    const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');

    skew = 61_000;
    // The list's next poll (at most 5 s) meets the ended session: sign-in, saying why.
    await heading(page, /Sign in/);
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    expect((await fetch(`${idleOrigin}${BASE}/transactions`, { headers: { Cookie: header } })).status).toBe(401);
  } finally {
    await context.close();
    await new Promise((resolve) => idleServer.close(resolve));
  }
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
