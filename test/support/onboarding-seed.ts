import { randomUUID } from 'node:crypto';
import { Customer } from '../../src/contexts/customers/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import { type InternalAccount } from '../../src/contexts/ledger/entities';
import { applyContactVerificationRules } from '../../src/contexts/customers/services/contact-verification';
import { provisionCustomerAccounts } from '../../src/contexts/customers/services/account-provisioning';
import type { Harness } from './harness';
import { insertCustomer } from './onboarding-fixtures';

/**
 * A customer written straight to the database, then put through the hooks customer creation
 * calls (contact verification rules, account provisioning), so these tests do not depend on
 * the create endpoint's validation. KYC defaults to APPROVED; override any column.
 */
export async function seedCustomer(h: Harness, platformId: string, over: Partial<Customer> = {}): Promise<{ customer: Customer; opened: InternalAccount[] }> {
  const em = h.orm.em.fork();
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  const tag = randomUUID().slice(0, 8);
  const inserted = await insertCustomer(h.orm, h.masterKey, platformId, {
    platformCustomerId: `seed-${tag}`,
    umaAddress: `$seed.${tag}@sandbox.uma.local`,
    kycStatus: 'APPROVED',
    regionCode: null,
    currencies: platform.supportedCurrencies.map((c) => c.currencyCode),
    email: `seed.${tag}@example.com`,
    phoneNumber: '+4915112345678',
    fullName: 'Grace Hopper',
    ...over,
  });
  // Loaded into this EntityManager, so the hooks' changes are flushed with it.
  const customer = await em.findOneOrFail(Customer, { id: inserted.id });
  await applyContactVerificationRules(em, platform, customer);
  const opened = await provisionCustomerAccounts(em, platform, customer);
  return { customer, opened };
}
