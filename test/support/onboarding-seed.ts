import { randomUUID } from 'node:crypto';
import { Customer, Platform, type InternalAccount } from '../../src/db/entities';
import { newId } from '../../src/domain/ids';
import { applyContactVerificationRules } from '../../src/services/contact-verification';
import { provisionCustomerAccounts } from '../../src/services/provisioning';
import type { Harness } from './harness';

/**
 * A customer written straight to the database, then put through the hooks customer creation
 * calls (contact verification rules, account provisioning), so these tests do not depend on
 * the create endpoint's validation. KYC defaults to APPROVED; override any column.
 */
export async function seedCustomer(h: Harness, platformId: string, over: Partial<Customer> = {}): Promise<{ customer: Customer; opened: InternalAccount[] }> {
  const em = h.orm.em.fork();
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  const now = new Date();
  const tag = randomUUID().slice(0, 8);
  const customer = em.create(Customer, {
    id: newId('Customer'),
    platformId,
    platformCustomerId: `seed-${tag}`,
    customerType: 'INDIVIDUAL',
    umaAddress: `$seed.${tag}@sandbox.uma.local`,
    kycStatus: 'APPROVED',
    regionCode: null,
    currencies: platform.supportedCurrencies.map((c) => c.currencyCode),
    email: `seed.${tag}@example.com`,
    phoneNumber: '+4915112345678',
    fullName: 'Grace Hopper',
    birthDate: null,
    nationality: null,
    address: null,
    identifierEncrypted: null,
    contactVerification: null,
    profile: {},
    agreementConsents: [],
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
    ...over,
  });
  await em.flush();
  await applyContactVerificationRules(em, platform, customer);
  const opened = await provisionCustomerAccounts(em, platform, customer);
  return { customer, opened };
}
