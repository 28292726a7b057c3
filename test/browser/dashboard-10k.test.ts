import type { Browser } from 'playwright-core';
import { Transaction } from '../../src/contexts/payments/entities';
import { startBrowserApp, type BrowserApp } from '../support/browser-app';
import { BASE, type Harness } from '../support/harness';

// The speed bound: a platform with 10,000 transactions lists its first page in under 1 s. This
// test measures and prints it but asserts only what must hold on any machine (the page lists, the query
// takes the platform's index): a bound in milliseconds would fail on a busy machine (issue 37). The
// transactions are copies of one real funding transaction (every column as the service wrote it; a new
// id, a creation time one second apart, statuses spread), inserted in one SQL statement. Measured: the
// API call the Payments page makes (GET /transactions?limit=25, the first call and the median of five),
// and in Chromium the time from the click on Payments to its 25 rows on screen (the median of three fresh
// profiles), with the browser's own timing of the call the page made. Run: npm test -- test/browser/dashboard-10k.test.ts (figures printed
// and written to .data/dashboard-10k.json; docs/dashboard.md, "Speed").

const COUNT = 10_000;

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

/** COUNT - 1 copies of the template transaction, one second apart before it, in one statement. */
async function bulkCopies(templateId: string): Promise<void> {
  const connection = h.orm.em.getConnection();
  const columns = (
    await connection.execute<{ column_name: string }[]>(
      `select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'transactions' order by ordinal_position`,
    )
  ).map((r) => r.column_name);
  const generated: Record<string, string> = {
    id: `'Transaction:' || gen_random_uuid()`,
    status: `(array['COMPLETED','COMPLETED','COMPLETED','FAILED','PENDING','REFUNDED'])[1 + i % 6]`,
    created_at: `t.created_at - make_interval(secs => i)`,
    updated_at: `t.created_at - make_interval(secs => i)`,
    // Unique per quote: copies have none.
    quote_id: 'null',
  };
  const select = columns.map((c) => generated[c] ?? `t.${c}`).join(', ');
  await connection.execute(`insert into transactions (${columns.join(', ')}) select ${select} from transactions t, generate_series(1, ?) as i where t.id = ?`, [
    COUNT - 1,
    templateId,
  ]);
  await connection.execute('analyze transactions');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

test(`a platform with ${COUNT} transactions: the Payments page's first list (API and render) (measured and printed; the target is 1 s)`, async () => {
  const p = await h.platform();
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'bulk-owner', fullName: 'Bulk Owner' });
  const usd = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`)).body.data[0].id as string;
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000 })).status).toBe(200);
  const template = await h.orm.em.fork().findOneOrFail(Transaction, { platformId: p.platform.id });
  const insertStart = performance.now();
  await bulkCopies(template.id);
  const insertMs = performance.now() - insertStart;

  // The API call the page makes, as a partner's client makes it.
  const call = async () => {
    const start = performance.now();
    const res = await fetch(`${origin}${BASE}/transactions?limit=25`, { headers: { Authorization: p.auth } });
    const body = (await res.json()) as { data: unknown[]; totalCount: number };
    return { ms: performance.now() - start, status: res.status, rows: body.data.length, totalCount: body.totalCount };
  };
  const first = await call();
  expect(first).toMatchObject({ status: 200, rows: 25, totalCount: COUNT });
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await call()).ms);
  const apiMedianMs = median(times);

  // The page in Chromium, three times in a fresh profile (nothing cached): signed in on Home, then the click
  // on Payments until its 25 rows are on screen. The median is the figure (one run can meet a busy core).
  const renders: { headingMs: number; renderMs: number; browserCallMs: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/dashboard/`);
    await page.getByLabel('Token id').fill(p.token.tokenId);
    await page.getByLabel('Client secret').fill(p.token.clientSecret);
    await page.keyboard.press('Enter');
    await page.getByTestId('environment').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Balances' }).waitFor({ timeout: 20_000 });
    const heading = page.getByRole('heading', { level: 1, name: 'Payments' });
    const clickAt = performance.now();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments', exact: true }).click();
    await heading.waitFor({ timeout: 20_000 });
    const headingMs = performance.now() - clickAt;
    await page.getByTestId('payment-row').nth(24).waitFor({ timeout: 20_000 });
    const renderMs = performance.now() - clickAt;
    await expect(page.getByTestId('payment-row').count()).resolves.toBe(25);
    const browserCallMs = await page.evaluate(() => {
      const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string; duration: number }[] } }).performance;
      const calls = perf.getEntriesByType('resource').filter((e) => /\/transactions\?/.test(e.name) && /limit=25/.test(e.name));
      return calls[0]?.duration ?? -1;
    });
    await context.close();
    renders.push({ headingMs, renderMs, browserCallMs });
  }
  const renderMs = median(renders.map((r) => r.renderMs));
  const headingMs = median(renders.map((r) => r.headingMs));
  const browserCallMs = median(renders.map((r) => r.browserCallMs));

  // The list's query as the service runs it (keyset order, limit + 1): the platform index, not a scan.
  const plan = (
    await h.orm.em
      .getConnection()
      .execute<{ 'QUERY PLAN': string }[]>('explain analyze select * from transactions where platform_id = ? order by created_at desc, id desc limit 26', [
        p.platform.id,
      ])
  ).map((r) => r['QUERY PLAN']);
  expect(plan.join('\n')).toContain('transactions_platform_idx');

  const figures = {
    transactions: COUNT,
    insertMs: Math.round(insertMs),
    apiFirstMs: Math.round(first.ms),
    apiMedianMs: Math.round(apiMedianMs),
    browserCallMs: Math.round(browserCallMs),
    headingMs: Math.round(headingMs),
    renderMs: Math.round(renderMs),
    rendersMs: renders.map((r) => Math.round(r.renderMs)),
  };
  console.log(`dashboard with ${COUNT} transactions: ${JSON.stringify(figures)}\n${plan.join('\n')}`);
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync('.data', { recursive: true });
  writeFileSync('.data/dashboard-10k.json', `${JSON.stringify(figures, null, 2)}\n`);
  expect(browserCallMs).toBeGreaterThan(0);
}, 180_000);
