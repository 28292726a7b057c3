import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { BASE, Harness } from '../support/harness';

// The rendered API reference in a real browser, with the network cut off: every request to a host
// other than this machine is refused. The page must still list the operations, so the Scalar
// bundle has to come from the service itself.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

let h: Harness;
let server: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH. This test does not skip.`,
    );
  }
  h = await Harness.start();
  server = await new Promise<Server>((resolve) => {
    const s = h.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await h?.stop();
});

test('the reference page renders the operations offline, from same-origin scripts only', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const offHost: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });

  const res = await page.goto(`${origin}${BASE}/reference`);
  expect(res?.status()).toBe(200);

  // Operation summaries of listCustomers and createCustomer, as the OpenAPI document gives them.
  const doc = (await (await fetch(`${origin}${BASE}/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
  const summaries = [doc.paths['/customers']!.get!.summary, doc.paths['/customers']!.post!.summary, doc.paths['/transactions']!.get!.summary];
  try {
    for (const summary of summaries) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: 'attached', timeout: 30_000 });
    }
  } catch (err) {
    // Say why: what the browser refused or reported, and what the page shows (screenshot).
    await page.screenshot({ path: '.data/reference-page.png' }).catch(() => undefined);
    throw new Error(
      `${(err as Error).message}\nblocked off-host requests: ${JSON.stringify(offHost)}\nconsole/page errors: ${JSON.stringify(problems)}\nscripts: ${JSON.stringify(scripts)}\nscreenshot: .data/reference-page.png`,
      { cause: err },
    );
  }
  await expect(page.title()).resolves.toBe('Payments Service API');

  expect(scripts).toEqual([`${origin}${BASE}/reference/scalar.js`]);
  // Only same-origin scripts and the page's own nonce-bearing inline script may run.
  expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(offHost).toEqual([]);
  expect(problems).toEqual([]);
  await page.screenshot({ path: '.data/reference-page.png' }); // for a person to look at
  await context.close();
  // Chromium parsing the Scalar bundle on one loaded core outlasted jest's 60 s (docs/testing.md, run 15);
  // the page's own waits above are the bounds that say what it waited for.
}, 120_000);

test('the bundle is served from the pinned package, as JavaScript', async () => {
  const res = await fetch(`${origin}${BASE}/reference/scalar.js`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  const text = await res.text();
  expect(text).toContain('window.Scalar={createApiReference');
  const page = await (await fetch(`${origin}${BASE}/reference`)).text();
  expect(page).toContain(`<script src="${BASE}/reference/scalar.js"`);
  expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"'\s]*\.(js|mjs)\b/);
});
