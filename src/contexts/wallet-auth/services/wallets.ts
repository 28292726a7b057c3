import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { InternalAccount } from '../../ledger';

/**
 * The platform's embedded wallet with this id: 404 when the platform has no such internal
 * account (another platform's included), 409 WALLET_NOT_PROVISIONED when it is no embedded wallet.
 */
export async function requireWallet(em: EntityManager, platformId: string, accountId: string): Promise<InternalAccount> {
  const account = await em.findOne(InternalAccount, { id: accountId, platformId });
  if (!account) throw DomainError.notFound('InternalAccount');
  if (account.type !== 'EMBEDDED_WALLET') {
    throw new DomainError(
      'WALLET_NOT_PROVISIONED',
      `Internal account ${accountId} is no embedded wallet (${account.type}): it has no wallet credentials or signatures`,
    );
  }
  return account;
}
