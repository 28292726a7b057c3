import { InternalAccount } from '../../../src/contexts/ledger/entities';
import type { Customer } from '../../../src/contexts/customers/entities';
import type { Harness } from '../harness';
import { seedCustomer } from '../onboarding-seed';

/** A customer of the platform with its USDB embedded wallet (and, with an email, the wallet's EMAIL_OTP credential). */
export async function customerWithWallet(h: Harness, platformId: string, over: Partial<Customer> = {}): Promise<{ customer: Customer; walletId: string }> {
  const { customer } = await seedCustomer(h, platformId, over);
  const wallet = await h.orm.em.fork().findOneOrFail(InternalAccount, { customerId: customer.id, type: 'EMBEDDED_WALLET' });
  return { customer, walletId: wallet.id };
}
