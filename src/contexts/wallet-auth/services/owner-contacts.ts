import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';

/** The email and phone on file for a wallet's owner, where OTP codes go. */
export interface OwnerContacts {
  email: string | null;
  phoneNumber: string | null;
}

export type OwnerContactsSource = (em: EntityManager, platformId: string, customerId: string) => Promise<OwnerContacts | null>;

let source: OwnerContactsSource | undefined;

/**
 * Customers sit above wallet-auth (they own the contacts; their provisioning opens wallets), so
 * the customers context plugs its lookup in here rather than wallet-auth importing it.
 */
export function provideWalletOwnerContacts(lookup: OwnerContactsSource): void {
  source = lookup;
}

export async function walletOwnerContacts(em: EntityManager, platformId: string, customerId: string): Promise<OwnerContacts | null> {
  if (!source) throw DomainError.internal('No source of wallet owner contacts is registered');
  return source(em, platformId, customerId);
}
