import { basePath } from '../../../config';
import { revealToken } from '../domain/card-secrets';

/** How long a reveal URL works: the reference's "minutes". */
export const REVEAL_URL_SECONDS = 5 * 60;

/**
 * A signed, short-lived URL where the cardholder is shown the PAN and CVV. The URL carries no
 * card data, only the card id and expiry signed with the service's key; it is a bearer secret and
 * is never logged (the request logger does not log response bodies).
 */
export function revealUrl(config: { masterKey: Buffer; publicBaseUrl: string; apiPrefix: string }, cardId: string, nowMs = Date.now()) {
  const expiresAtMs = nowMs + REVEAL_URL_SECONDS * 1000;
  const token = revealToken(config.masterKey, cardId, expiresAtMs);
  const base = config.publicBaseUrl.replace(/\/+$/, '').replace(/\/2025-10-13$/, '');
  // The token rides in the fragment, which browsers never send to a server: no access log, proxy
  // or referrer ever sees it.
  return { panEmbedUrl: `${base}${basePath(config.apiPrefix)}/card-reveal#${token}`, expiresAt: new Date(expiresAtMs).toISOString() };
}
