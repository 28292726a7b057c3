import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../entities';
import { type InternalAccount, openPlannedAccounts } from '../../ledger';
import type { Platform } from '../../platforms';
import { openWalletEmailCredential } from '../../wallet-auth';
import { customerAccountPlan } from './customer-account-plan';

/**
 * Opens the internal accounts a customer should hold and does not yet (customerAccountPlan):
 * nothing until the customer may hold balances; then one per enabled currency and, where the
 * platform supports embedded wallets or USDB, the USDB EMBEDDED_WALLET (with its EMAIL_OTP
 * credential when the customer has an email).
 *
 * Idempotent: call it whenever something that affects the plan changes (creation, consent,
 * currencies, approval). Runs in the caller's transaction (or opens one) and locks the
 * customer row, so concurrent calls never open an account twice. Returns the accounts it
 * opened; announce them after commit (announceOpenedAccounts in the ledger context, or
 * recordOpenedAccountEvents of the ledger in an activity).
 */
export async function provisionCustomerAccounts(em: EntityManager, platform: Platform, customer: Customer): Promise<InternalAccount[]> {
  // A deleted customer keeps what it holds but opens nothing new.
  const plan = customer.isDeleted ? [] : customerAccountPlan(platform, customer);
  if (plan.length === 0) return [];
  if (!em.isInTransaction()) return em.transactional((tx) => provisionCustomerAccounts(tx, platform, customer));
  await em.createQueryBuilder(Customer).select('id').where({ id: customer.id }).setLockMode(LockMode.PESSIMISTIC_WRITE).execute();
  const opened = await openPlannedAccounts(em, plan, { platformId: platform.id, customerId: customer.id });
  // A wallet starts with the owner's email as its EMAIL_OTP credential.
  for (const wallet of opened.filter((account) => account.type === 'EMBEDDED_WALLET')) {
    await openWalletEmailCredential(em, { platformId: platform.id, accountId: wallet.id, email: customer.email });
  }
  return opened;
}
