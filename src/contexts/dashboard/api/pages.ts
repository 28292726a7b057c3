import express, { type Request, type Response, type Router } from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sendError } from '../../../api/http';
import { DomainError } from '../../../domain/errors';

/** Where the dashboard is served, outside the versioned API base. */
export const DASHBOARD_PATH = '/dashboard';

/** The front end `npm run dashboard:build` writes: dashboard/dist at the top of the checkout. */
export const DEFAULT_DASHBOARD_DIST = resolve(__dirname, '../../../../dashboard/dist');

/**
 * The dashboard's policy: the reference page's, without an inline script (the build's scripts are
 * files of this origin) and never framed. Requests go to this origin only.
 */
export const DASHBOARD_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = { 'Content-Security-Policy': DASHBOARD_POLICY, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/**
 * The built single-page app: the files under dist/assets as they are (hashed, cached a year), and
 * index.html, never cached, for every other path below /dashboard so the app's own routes load. Nothing
 * else in dist/ is served: the build's own files (.vite/manifest.json, .build-hash) describe the build,
 * not the app. Without a build: 503 saying how to make one.
 */
export function dashboardPages(distDir = DEFAULT_DASHBOARD_DIST): Router {
  const router = express.Router();
  const index = join(distDir, 'index.html');
  router.use(DASHBOARD_PATH, (_req: Request, res: Response, next) => {
    res.set(HEADERS);
    if (existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-store');
    sendError(
      res,
      new DomainError('SERVICE_UNAVAILABLE', 'The dashboard is not built: run `npm run dashboard:build` (npm start builds it) and reload', {
        build: 'npm run dashboard:build',
      }),
    );
  });
  router.use(
    `${DASHBOARD_PATH}/assets`,
    express.static(join(distDir, 'assets'), {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.endsWith('.html') ? 'no-store' : 'public, max-age=31536000, immutable');
      },
    }),
  );
  router.get([DASHBOARD_PATH, `${DASHBOARD_PATH}/{*rest}`], (req: Request, res: Response) => {
    // A missing asset is a 404, not the app: a stale index.html asking for an old chunk would otherwise get HTML as script.
    if (/\.[a-z0-9]+$/i.test(req.path) && !req.path.endsWith('.html')) {
      res.setHeader('Cache-Control', 'no-store');
      return sendError(res, DomainError.notFound('File'));
    }
    res.sendFile(index, { headers: { 'Cache-Control': 'no-store' } });
  });
  return router;
}
