import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { decrypt, encrypt } from '../../../security/secrets';
import { WalletSecret } from '../entities/WalletSecret';

/**
 * The wallet's seed in clear, for sealing to an export's client key only. Made on the wallet's
 * first export (the first caller's insert wins a race; every later export reads the same seed),
 * so wallets opened before exports existed get one too.
 */
export async function walletSeed(em: EntityManager, masterKey: Buffer, wallet: { id: string; platformId: string }): Promise<string> {
  await em
    .createQueryBuilder(WalletSecret)
    .insert({ accountId: wallet.id, platformId: wallet.platformId, sealedSeed: encrypt(masterKey, randomBytes(32).toString('hex')), createdAt: new Date() })
    .onConflict('accountId')
    .ignore()
    .execute();
  const row = await em.findOneOrFail(WalletSecret, { accountId: wallet.id }, { populate: ['sealedSeed'], refresh: true });
  return decrypt(masterKey, row.sealedSeed);
}
