import type { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Customer } from '../../src/contexts/customers/entities';
import { newId } from '../../src/domain/ids';
import { encrypt } from '../../src/security/secrets';

/** Minimal valid files of each accepted type (magic bytes first). */
export const FILES = {
  pdf: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('1 0 obj <<>> endobj\n%%EOF\n')]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
};

export const US_ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/**
 * Inserts a customer row directly, bypassing the create endpoint's validation and hooks, for
 * tests that need a particular stored state (businesses, full profiles, odd statuses).
 */
export async function insertCustomer(
  orm: MikroORM,
  masterKey: Buffer,
  platformId: string,
  over: Partial<Customer> & { identifier?: string } = {},
): Promise<Customer> {
  const em = orm.em.fork();
  const { identifier, ...fields } = over;
  const now = new Date();
  const customer = em.create(Customer, {
    id: newId('Customer'),
    platformId,
    platformCustomerId: `pc-${randomUUID()}`,
    customerType: 'INDIVIDUAL',
    umaAddress: `$u${randomUUID().slice(0, 12)}@sandbox.uma.local`,
    kycStatus: 'UNVERIFIED',
    regionCode: 'US',
    currencies: ['USD'],
    email: null,
    phoneNumber: null,
    fullName: null,
    birthDate: null,
    nationality: null,
    address: null,
    identifierEncrypted: identifier ? encrypt(masterKey, identifier) : null,
    contactVerification: null,
    profile: {},
    agreementConsents: [],
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
    ...fields,
  });
  await em.flush();
  return customer;
}

/** A business with complete business info and address; the registration number picks the sandbox outcome. */
export function businessFields(registrationNumber: string, over: Partial<Customer> = {}): Partial<Customer> {
  return {
    customerType: 'BUSINESS',
    address: US_ADDRESS,
    profile: { businessInfo: { legalName: 'Acme Inc', country: 'US', incorporatedOn: '2015-03-01', taxId: '12-3456789', registrationNumber } },
    ...over,
  };
}

/** An individual complete for a US verification, except the identity document. */
export function individualFields(fullName: string, over: Partial<Customer> & { identifier?: string } = {}): Partial<Customer> & { identifier?: string } {
  return {
    customerType: 'INDIVIDUAL',
    fullName,
    birthDate: '1990-04-01',
    nationality: 'US',
    address: US_ADDRESS,
    identifier: '123-45-6789',
    profile: { idType: 'SSN', purposeOfAccount: 'P2P_TRANSFERS', sourceOfFundsCategories: ['SALARY'], expectedMonthlyTransactionVolume: 'VOLUME_UNDER_10K' },
    ...over,
  };
}

export function ownerBody(customerId: string, over: Record<string, unknown> = {}, info: Record<string, unknown> = {}) {
  return {
    customerId,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 60,
    personalInfo: {
      firstName: 'Jane',
      lastName: 'Smith',
      birthDate: '1978-06-15',
      nationality: 'US',
      email: 'jane@example.com',
      phoneNumber: '+14155550192',
      address: US_ADDRESS,
      idType: 'SSN',
      identifier: '123-45-6789',
      ...info,
    },
    ...over,
  };
}
