import type { EntityManager } from '@mikro-orm/postgresql';
import { checkClientSecret, isSlowLegacyHash } from '../../../security/secrets';
import { ApiToken } from '../entities';

/** What a pair of credentials comes to: the token, or why not. */
export type CredentialCheck = { token: ApiToken } | { refused: 'WRONG' | 'SLOW_CHECK_DEFERRED' };

/**
 * The token a `<token id>:<client secret>` pair names, or why not: the id is unknown or the secret
 * wrong. The row is read on every call (a revoked — deleted — token fails at once), and an
 * unknown id costs the same read and the same hash as a known one. A token still stored with the
 * former scrypt hash gets its keyed hash on this first good check (only if the row still holds
 * the hash that was checked: a secret changed meanwhile wins). That scrypt costs ~100 ms and 32 MB,
 * so a caller already refusing the address (`slowCheckAllowed` false) is answered before it runs:
 * anyone could otherwise spend the server's CPU on it without limit.
 */
export async function checkCredentials(
  em: EntityManager,
  masterKey: Buffer,
  tokenId: string,
  secret: string,
  options: { slowCheckAllowed: boolean },
): Promise<CredentialCheck> {
  const token = await em.findOne(ApiToken, { id: tokenId });
  if (token && !options.slowCheckAllowed && isSlowLegacyHash(token.secretHash)) return { refused: 'SLOW_CHECK_DEFERRED' };
  const check = await checkClientSecret(masterKey, secret, token?.secretHash);
  if (!token || !check.matches) return { refused: 'WRONG' };
  if (check.rehashed) await em.nativeUpdate(ApiToken, { id: token.id, secretHash: token.secretHash }, { secretHash: check.rehashed });
  return { token };
}
