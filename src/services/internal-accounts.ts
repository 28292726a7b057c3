import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { InternalAccount, LedgerAccount } from '../db/entities';
import type { InternalAccountType } from '../db/entities/InternalAccount';
import { currency } from '../domain/currencies';
import { newId } from '../domain/ids';

/** The kind of balance a currency is held in, unless an embedded wallet is asked for. */
export function accountTypeFor(code: string): InternalAccountType {
  return currency(code).kind === 'CRYPTO' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/** Opens an internal account and its ledger account, in the caller's transaction. */
export function openInternalAccount(
  em: EntityManager,
  input: { platformId: string; customerId: string | null; currency: string; type?: InternalAccountType },
): InternalAccount {
  const now = new Date();
  const id = newId('InternalAccount');
  const type = input.type ?? accountTypeFor(input.currency);
  em.create(LedgerAccount, { id, platformId: input.platformId, kind: 'INTERNAL_ACCOUNT', currency: input.currency, allowNegative: false, balance: 0n, held: 0n, createdAt: now, updatedAt: now });
  return em.create(InternalAccount, {
    id,
    platformId: input.platformId,
    customerId: input.customerId,
    currency: input.currency,
    type,
    status: 'ACTIVE',
    // 12 base32-ish characters: unique by index, short enough to type into a bank form.
    fundingReference: `SVC${randomBytes(8).toString('hex').toUpperCase().slice(0, 12)}`,
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
