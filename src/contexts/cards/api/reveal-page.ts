import express, { type Request, type Response, type Router } from 'express';
import type { ApiDeps } from '../../../api/context';
import { redeemRevealLink } from '../services/card-reveal';

/**
 * The page a reveal URL opens (`POST /cards/{id}/reveal` mints it): the cardholder's browser
 * reads the signed token from the URL fragment and posts it back here, and the page shows the
 * card number, CVV and expiry. It sits outside partner authentication (the token is the
 * credential), answers with no-store and no-referrer, and nothing of the token or the card data
 * reaches a log: the request logger records only the method and the path.
 */
export const REVEAL_PAGE_PATH = '/card-reveal';

const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Card details</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem;color:#111}dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#555}dd{margin:0;font-family:ui-monospace,monospace;font-size:1.1rem}</style></head>
<body><main><h1>Card details</h1><p id="status">Loading…</p>
<dl id="card" hidden><dt>Card number</dt><dd id="pan"></dd><dt>Expires</dt><dd id="exp"></dd><dt>CVV</dt><dd id="cvv"></dd></dl></main>
<script src="card-reveal.js"></script></body></html>
`;

// Served as a file of its own so that the page's policy can forbid inline script.
const SCRIPT = `(async () => {
  const status = document.getElementById('status');
  const token = location.hash.slice(1);
  history.replaceState(null, '', location.pathname);
  if (!token) { status.textContent = 'This link is incomplete.'; return; }
  const res = await fetch('card-reveal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (res.status === 409) { status.textContent = 'This link has already been used. Ask for a new one.'; return; }
  if (!res.ok) { status.textContent = 'This link has expired or is not valid. Ask for a new one.'; return; }
  const card = await res.json();
  document.getElementById('pan').textContent = card.pan.replace(/(\\d{4})(?=\\d)/g, '$1 ');
  document.getElementById('exp').textContent = String(card.expMonth).padStart(2, '0') + '/' + card.expYear;
  document.getElementById('cvv').textContent = card.cvv;
  status.hidden = true;
  document.getElementById('card').hidden = false;
})();
`;

const PAGE_POLICY = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

function refuse(res: Response): void {
  // One answer for forged, expired and unusable alike: the page has nothing to tell an attacker.
  res.status(404).set(NO_STORE).json({ status: 404, code: 'NOT_FOUND', reason: 'This reveal link is not valid', message: 'This reveal link is not valid' });
}

function refuseUsed(res: Response): void {
  const reason = 'This reveal link has already been used (or a newer one replaced it): ask for a new one';
  res.status(409).set(NO_STORE).json({ status: 409, code: 'CONFLICT', reason, message: reason });
}

export function revealPageRouter(deps: ApiDeps): Router {
  const router = express.Router();
  router.get(REVEAL_PAGE_PATH, (_req: Request, res: Response) => {
    res
      .status(200)
      .set({ ...NO_STORE, 'Content-Security-Policy': PAGE_POLICY })
      .type('html')
      .send(PAGE);
  });
  router.get(`${REVEAL_PAGE_PATH}.js`, (_req: Request, res: Response) => {
    res.status(200).set(NO_STORE).type('application/javascript').send(SCRIPT);
  });
  router.post(REVEAL_PAGE_PATH, express.json({ limit: '2kb' }), async (req: Request, res: Response, next) => {
    try {
      const redemption = await redeemRevealLink(deps.orm.em.fork(), deps.config.masterKey, (req.body as { token?: unknown } | undefined)?.token);
      if ('refused' in redemption) return redemption.refused === 'USED' ? refuseUsed(res) : refuse(res);
      res.status(200).set(NO_STORE).json(redemption.shown);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
