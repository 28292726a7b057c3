import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import { Customer, type Platform } from '../db/entities';
import { ApiError } from '../domain/errors';
import { newId } from '../domain/ids';
import { sandboxKycStatusAtCreation } from '../domain/onboarding';
import { provisionCustomerAccounts } from './provisioning';

export interface NewIndividualCustomer {
  platformCustomerId: string;
  customerType: 'INDIVIDUAL';
  email?: string;
  phoneNumber?: string;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  umaAddress?: string;
  currencies?: string[];
  address?: Record<string, unknown>;
}

function generatedUmaAddress(platform: Platform, platformCustomerId: string): string {
  const handle = platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 32) || 'user';
  return `$${handle}.${randomBytes(3).toString('hex')}@${platform.umaDomain ?? 'sandbox.uma.local'}`;
}

/**
 * Creates a customer and, when it may already hold balances, its internal accounts, in one
 * transaction. Sandbox KYC at creation follows spec §8 (see sandboxKycStatusAtCreation).
 */
export async function createCustomer(em: EntityManager, platform: Platform, input: NewIndividualCustomer): Promise<Customer> {
  const platformCurrencies = platform.supportedCurrencies.map((c) => c.currencyCode);
  const currencies = input.currencies ?? platformCurrencies;
  const unsupported = currencies.filter((c) => !platformCurrencies.includes(c));
  if (unsupported.length > 0) {
    throw ApiError.invalidInput(unsupported.map((c) => ({ field: `currencies`, constraint: 'supported', message: `${c} is not enabled for this platform` })));
  }
  const now = new Date();
  try {
    return await em.transactional(async (tx) => {
      const customer = tx.create(Customer, {
        id: newId('Customer'),
        platformId: platform.id,
        platformCustomerId: input.platformCustomerId,
        customerType: input.customerType,
        umaAddress: input.umaAddress ?? generatedUmaAddress(platform, input.platformCustomerId),
        kycStatus: sandboxKycStatusAtCreation(platform, input),
        regionCode: platform.region === 'EU' ? 'EU' : 'US',
        currencies,
        email: input.email ?? null,
        phoneNumber: input.phoneNumber ?? null,
        fullName: input.fullName ?? null,
        birthDate: input.birthDate ?? null,
        nationality: input.nationality ?? null,
        address: input.address ?? null,
        profile: {},
        agreementConsents: [],
        isDeleted: false,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      await provisionCustomerAccounts(tx, platform, customer);
      return customer;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      if (String(err.message).includes('uma_address')) throw ApiError.conflict('UMA_ADDRESS_EXISTS', 'That UMA address is already taken');
      throw ApiError.conflict('CONFLICT', 'A customer with this platformCustomerId already exists');
    }
    throw err;
  }
}
