import type { EntityManager } from '@mikro-orm/postgresql';
import { InternalAccount, type Customer, type Platform } from '../db/entities';
import { mayHoldBalances } from '../domain/onboarding';
import { accountTypeFor, openInternalAccount } from './internal-accounts';

/**
 * Opens the internal accounts a customer should hold and does not yet: one per enabled currency,
 * once the customer may hold balances at all (approved; terms accepted where required).
 * Idempotent; called after creation, after a currency change and after KYC approval. Runs in the
 * caller's transaction. Returns the accounts it opened.
 */
export async function provisionCustomerAccounts(em: EntityManager, platform: Platform, customer: Customer): Promise<InternalAccount[]> {
  if (!mayHoldBalances(platform, customer)) return [];
  const held = new Set((await em.find(InternalAccount, { customerId: customer.id })).map((a) => `${a.type}:${a.currency}`));
  const opened: InternalAccount[] = [];
  for (const code of customer.currencies) {
    if (held.has(`${accountTypeFor(code)}:${code}`)) continue;
    opened.push(openInternalAccount(em, { platformId: platform.id, customerId: customer.id, currency: code }));
  }
  await em.flush();
  return opened;
}
