import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount, type InternalAccount } from '../db/entities';
import { internalAccountView } from './views';

/** Views of several accounts with their balances, read in one query. */
export async function internalAccountViews(em: EntityManager, accounts: InternalAccount[]) {
  if (accounts.length === 0) return [];
  const ledgers = await em.find(LedgerAccount, { id: { $in: accounts.map((a) => a.id) } }, { refresh: true });
  const byId = new Map(ledgers.map((l) => [l.id, l]));
  return accounts.map((a) => internalAccountView(a, byId.get(a.id)!));
}
