import type { EntityManager } from '@mikro-orm/postgresql';
import { type Platform, insertPlatform, type NewPlatform, ensureSigningKeys } from '../../platforms';
import { provisionPlatformAccounts } from '../../ledger';

/**
 * Creates a platform with its own internal accounts (one per currency) and, given the master key,
 * its own webhook-signing keys (else they are made on first use).
 */
export async function createPlatform(em: EntityManager, input: NewPlatform, options: { masterKey?: Buffer } = {}): Promise<Platform> {
  const platform = await insertPlatform(em, input);
  await provisionPlatformAccounts(em, platform);
  if (options.masterKey) await ensureSigningKeys(em, options.masterKey, platform.id);
  return platform;
}
