import type { EntityManager } from '@mikro-orm/postgresql';
import type { OwnerContacts } from '../../wallet-auth';
import { Customer } from '../entities';

/** The contacts of a wallet's owner, for wallet-auth's OTP credentials (plugged in by api/index.ts). */
export async function customerContacts(em: EntityManager, platformId: string, customerId: string): Promise<OwnerContacts | null> {
  const customer = await em.findOne(Customer, { id: customerId, platformId });
  return customer ? { email: customer.email ?? null, phoneNumber: customer.phoneNumber ?? null } : null;
}
