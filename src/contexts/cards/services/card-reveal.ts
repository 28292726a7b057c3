import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { basePath } from '../../../config';
import { DomainError } from '../../../domain/errors';
import { decrypt } from '../../../security/secrets';
import { Card } from '../entities';
import { revealToken, verifyRevealToken } from '../domain/card-secrets';
import { revealRefusal } from '../domain/card-state';

/** How long a reveal URL works: the reference's "minutes". */
export const REVEAL_URL_SECONDS = 5 * 60;

type RevealConfig = { masterKey: Buffer; publicBaseUrl: string; apiPrefix: string };

/**
 * A signed, short-lived URL where the cardholder is shown the PAN and CVV. The URL carries no
 * card data, only the card id, the link's id and expiry signed with the service's key; it is a
 * bearer secret and is never logged (the request logger does not log response bodies).
 */
export function revealUrl(config: RevealConfig, cardId: string, linkId: string, nowMs = Date.now()) {
  const expiresAtMs = nowMs + REVEAL_URL_SECONDS * 1000;
  const token = revealToken(config.masterKey, cardId, linkId, expiresAtMs);
  const base = config.publicBaseUrl.replace(/\/+$/, '').replace(/\/2025-10-13$/, '');
  // The token rides in the fragment, which browsers never send to a server: no access log, proxy
  // or referrer ever sees it.
  return { panEmbedUrl: `${base}${basePath(config.apiPrefix)}/card-reveal#${token}`, expiresAt: new Date(expiresAtMs).toISOString() };
}

/**
 * Mints the card's reveal link: refused unless the card is ACTIVE with a number. The card
 * remembers this link as the only one that may still be used, so a newer link replaces an
 * older one, and the conditional write loses to a state change that got in first.
 */
export async function issueRevealLink(em: EntityManager, config: RevealConfig, card: Card) {
  const refusal = revealRefusal(card.state, !!card.panHash);
  if (refusal) throw new DomainError(refusal.code, refusal.message);
  const linkId = randomUUID();
  const claimed = await em.nativeUpdate(Card, { id: card.id, state: 'ACTIVE' }, { revealLinkId: linkId });
  if (claimed === 0) throw new DomainError('CONFLICT', 'The card changed state meanwhile: only an ACTIVE card reveals its details');
  return revealUrl(config, card.id, linkId);
}

export type Redemption = { shown: { pan: string; cvv: string; expMonth: number | null; expYear: number | null } } | { refused: 'USED' | 'INVALID' };

/**
 * One use of a reveal link: it is spent by the same write that checks it (the card still ACTIVE
 * and this its current link), so two uses at once show the card once. A genuine link spent or
 * replaced is told apart (USED) from a forged, expired or unusable one (INVALID): only the holder
 * of a link signed by the service can learn that.
 */
export async function redeemRevealLink(em: EntityManager, masterKey: Buffer, token: unknown, nowMs = Date.now()): Promise<Redemption> {
  const link = typeof token === 'string' && token.length <= 1024 ? verifyRevealToken(masterKey, token, nowMs) : null;
  if (!link) return { refused: 'INVALID' };
  const spent = await em.nativeUpdate(Card, { id: link.cardId, state: 'ACTIVE', revealLinkId: link.linkId }, { revealLinkId: null });
  if (spent === 0) {
    const card = await em.findOne(Card, { id: link.cardId }, { fields: ['state'] });
    return { refused: card?.state === 'ACTIVE' ? 'USED' : 'INVALID' };
  }
  const card = await em.findOne(Card, { id: link.cardId }, { populate: ['sealedSecrets'] });
  if (!card?.sealedSecrets) return { refused: 'INVALID' };
  const secrets = JSON.parse(decrypt(masterKey, card.sealedSecrets)) as { pan: string; cvv: string };
  return { shown: { pan: secrets.pan, cvv: secrets.cvv, expMonth: card.expMonth ?? null, expYear: card.expYear ?? null } };
}
