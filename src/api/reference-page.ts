import { apiReference } from '@scalar/express-api-reference';
import express, { type Request, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

/**
 * The rendered API reference, served whole from this service: the page and the Scalar browser
 * bundle it runs come from the same origin, so it works offline and loads no third-party script.
 * The bundle is the UMD standalone build shipped by the pinned `@scalar/api-reference` package
 * (what `@scalar/express-api-reference` would otherwise import from a public CDN, unpinned).
 */
export const SCALAR_BUNDLE = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/**
 * Only this origin's scripts run, plus the page's one inline script, which carries a fresh nonce
 * per response. Styles may be inline (the bundle injects its stylesheet and sets style
 * attributes). Requests from the page (the OpenAPI document, "try it" calls) go to this origin
 * or to the public base URL the OpenAPI document names as its server.
 */
export function referencePolicy(nonce: string, publicBaseUrl: string): string {
  const server = new URL(publicBaseUrl).origin;
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${server}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** `<base>/reference` (the page) and `<base>/reference/scalar.js` (the bundle). */
export function referenceRoutes(base: string, publicBaseUrl: string): express.Router {
  const router = express.Router();
  const bundleUrl = `${base}/reference/scalar.js`;
  router.get('/reference/scalar.js', (_req: Request, res: Response) => {
    res.sendFile(SCALAR_BUNDLE, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' }, maxAge: '1h' });
  });
  router.get('/reference', (req: Request, res: Response, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', referencePolicy(nonce, publicBaseUrl));
    // `cdn` selects the single-file UMD bundle (no further chunk imports) at our own URL. Nothing
    // that needs Scalar's hosted services: no default fonts (their font host; system fonts are
    // used), no AI agent, no MCP generator, no developer toolbar (share/deploy to their cloud).
    // Every tag starts open, so the sidebar lists every operation.
    apiReference({
      url: `${base}/openapi.json`,
      pageTitle: 'Payments Service API',
      cdn: bundleUrl,
      nonce,
      withDefaultFonts: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      defaultOpenAllTags: true,
    })(req as Request<never>, res, next);
  });
  return router;
}
