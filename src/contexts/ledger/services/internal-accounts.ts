import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { InternalAccount, LedgerAccount } from '../entities';
import type { InternalAccountType } from '../entities/InternalAccount';
import { newId } from '../../../domain/ids';
import { accountTypeFor } from '../domain/internal-accounts';

export { accountTypeFor };

/** A deposit reference: `SVC` and 12 hex digits; unique by index, short enough to type into a bank form. */
export function newFundingReference(): string {
  return `SVC${randomBytes(6).toString('hex').toUpperCase()}`;
}

/** Opens an internal account and its ledger account, in the caller's transaction. */
export function openInternalAccount(
  em: EntityManager,
  input: { platformId: string; customerId: string | null; currency: string; type?: InternalAccountType },
): InternalAccount {
  const now = new Date();
  const id = newId('InternalAccount');
  const type = input.type ?? accountTypeFor(input.currency);
  em.create(LedgerAccount, {
    id,
    platformId: input.platformId,
    kind: 'INTERNAL_ACCOUNT',
    currency: input.currency,
    allowNegative: false,
    storedBalance: 0n,
    held: 0n,
    createdAt: now,
    updatedAt: now,
  });
  return em.create(InternalAccount, {
    id,
    platformId: input.platformId,
    customerId: input.customerId,
    currency: input.currency,
    type,
    status: 'ACTIVE',
    fundingReference: newFundingReference(),
    privateEnabled: type === 'EMBEDDED_WALLET' ? false : null,
    createdAt: now,
    updatedAt: now,
  });
}

export async function findInternalAccount(em: EntityManager, platformId: string, id: string) {
  const account = await em.findOne(InternalAccount, { id, platformId });
  if (!account) return null;
  const ledger = await em.findOneOrFail(LedgerAccount, { id }, { refresh: true });
  return { account, ledger };
}
