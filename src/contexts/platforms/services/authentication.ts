import type { EntityManager } from '@mikro-orm/postgresql';
import { checkClientSecret } from '../../../security/secrets';
import { ApiToken } from '../entities';

/**
 * The token a `<token id>:<client secret>` pair names, or null when the id is unknown or the
 * secret wrong. The row is read on every call (a revoked — deleted — token fails at once), and an
 * unknown id costs the same read and the same hash as a known one. A token still stored with the
 * former scrypt hash gets its keyed hash on this first good check (only if the row still holds
 * the hash that was checked: a secret changed meanwhile wins).
 */
export async function tokenForCredentials(em: EntityManager, masterKey: Buffer, tokenId: string, secret: string): Promise<ApiToken | null> {
  const token = await em.findOne(ApiToken, { id: tokenId });
  const check = await checkClientSecret(masterKey, secret, token?.secretHash);
  if (!token || !check.matches) return null;
  if (check.rehashed) await em.nativeUpdate(ApiToken, { id: token.id, secretHash: token.secretHash }, { secretHash: check.rehashed });
  return token;
}
