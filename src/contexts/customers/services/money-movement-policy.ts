import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { Platform } from '../../platforms';
import { balanceRefusal, END_USER_TERMS } from '../domain/onboarding';
import { Customer } from '../entities';
import { heldOrFind } from '../../../db/joined-rows';

/**
 * Money moves only for customers who may hold balances: not deleted (410 CUSTOMER_DELETED),
 * KYC/KYB APPROVED (403 USER_NOT_READY) and, on platforms that are not regulated institutions,
 * with the service's end-user terms accepted (403 END_USER_TERMS_NOT_ACCEPTED).
 *
 * Checked twice: by the API before any workflow starts (a quick, cheap refusal), and again
 * inside the database transaction that moves the money, where it is authoritative (the customer
 * may have changed in between). Pass `lock` there to hold the customer row until commit.
 */
export async function assertCustomerMayMoveMoney(em: EntityManager, platformId: string, customerId: string, options: { lock?: boolean } = {}): Promise<void> {
  const customer = options.lock
    ? await em.findOne(Customer, { id: customerId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    : await heldOrFind(em, Customer, customerId, { id: customerId, platformId }, (c) => c.platformId === platformId);
  if (!customer) throw DomainError.notFound('Customer', 'USER_NOT_FOUND');
  if (customer.isDeleted) throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted; its accounts take no new money');
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  switch (balanceRefusal(platform, customer)) {
    case 'USER_NOT_READY':
      throw new DomainError('USER_NOT_READY', `The customer's verification is ${customer.kycStatus}; money can move once it is APPROVED`);
    case 'END_USER_TERMS_NOT_ACCEPTED':
      throw new DomainError('END_USER_TERMS_NOT_ACCEPTED', `The customer has not accepted ${END_USER_TERMS}`);
  }
}
