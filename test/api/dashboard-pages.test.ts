import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { Harness } from '../support/harness';

let h: Harness;
let built: string;
let empty: string;
beforeAll(async () => {
  h = await Harness.start();
  built = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
  mkdirSync(join(built, 'assets'));
  writeFileSync(join(built, 'index.html'), '<!doctype html><title>Dashboard</title><script type="module" src="/dashboard/assets/app-1234.js"></script>');
  writeFileSync(join(built, 'assets', 'app-1234.js'), 'console.log("dashboard")');
  // What a build leaves beside the app: never served.
  mkdirSync(join(built, '.vite'));
  writeFileSync(join(built, '.vite', 'manifest.json'), '{"index.html":{"file":"assets/app-1234.js"}}');
  writeFileSync(join(built, '.build-hash'), 'build-hash-secret\n');
  writeFileSync(join(built, 'stats.json'), '{"modules":[]}');
  empty = mkdtempSync(join(tmpdir(), 'dashboard-none-'));
});
afterAll(async () => {
  rmSync(built, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
  await h.stop();
});

const appServing = (distDir: string) => createApp({ ...h.deps, dashboard: { distDir } });

/** The reference page's strict policy: this origin's scripts only, never framed. */
function expectStrictHeaders(res: request.Response) {
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

describe('GET /dashboard', () => {
  test('without a build: 503 with a JSON error saying how to build it', async () => {
    const res = await request(appServing(empty)).get('/dashboard/payments');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', reason: expect.stringContaining('npm run dashboard:build') });
  });

  test('with a build: index.html (no-store) for the app and its client routes, assets cached long, all under the strict CSP; no credentials asked', async () => {
    const app = appServing(built);
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/payments/Transaction:123']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<title>Dashboard</title>');
      expect(res.headers['cache-control']).toBe('no-store');
      expectStrictHeaders(res);
    }
    const asset = await request(app).get('/dashboard/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectStrictHeaders(asset);
    expect((await request(app).get('/dashboard/assets/gone-9999.js')).status).toBe(404);
  });

  test("the build's own files are not served: only index.html and dist/assets", async () => {
    const app = appServing(built);
    for (const path of ['/dashboard/.vite/manifest.json', '/dashboard/stats.json', '/dashboard/index.html.map']) {
      const res = await request(app).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expectStrictHeaders(res);
    }
    // A path without an extension is a client route: the app, never the file of that name.
    const stamp = await request(app).get('/dashboard/.build-hash');
    expect(stamp.text).not.toContain('build-hash-secret');
  });
});
