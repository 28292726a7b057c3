import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../customers';
import { Platform } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { scaRequired } from '../domain/sca-region';

export interface ScaCustomer {
  customer: Customer;
  platform: Platform;
}

/**
 * The customer an SCA call is about, in the caller's platform only (another platform's customer
 * is 404, exactly like an unknown one): 409 CONFLICT when its provider does not require SCA or it
 * is deleted. `lock` takes the customer row for the rest of the transaction, so that concurrent
 * proofs of one customer are judged one after the other.
 */
export async function loadScaCustomer(em: EntityManager, platformId: string, customerId: string, options: { lock?: boolean } = {}): Promise<ScaCustomer> {
  const customer = await em.findOne(Customer, { id: customerId, platformId }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!customer) throw DomainError.notFound('Customer');
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  if (!scaRequired(platform.region, customer.regionCode)) {
    throw new DomainError('CONFLICT', "Strong Customer Authentication is not required for this customer: its payment provider's region does not require it");
  }
  if (customer.isDeleted) throw new DomainError('CONFLICT', 'The customer is deleted');
  return { customer, platform };
}

/** The phone SMS_OTP codes go to: the customer's phone, once verified (SMS_OTP is implicit from it). */
export function verifiedPhoneOf(customer: Customer): string | null {
  return customer.phoneNumber && customer.contactVerification?.phone === 'VERIFIED' ? customer.phoneNumber : null;
}
