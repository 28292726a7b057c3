import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../entities';
import type { Platform } from '../../platforms';
import {
  assertOtpContactFree,
  assertWalletVerified,
  credentialSetFingerprint,
  lockCredentialSet,
  retargetOtpCredentials,
  runSignedOperation,
  tiedOtpCredentials,
  type SignedCall,
  type SignedOperation,
  type SignedOutcome,
} from '../../wallet-auth';
import { DomainError } from '../../../domain/errors';
import { contactChangeActivity, contactChangesOf, walletTiedContactChange, type ContactChange } from '../domain/wallet-contact-change';
import type { CustomerUpdateRequest } from '../schemas/customer-requests';
import { updateCustomer, type CustomerWrite, type CustomerWriteContext } from './customers';

/** A contact change the customer's embedded wallet must sign: the change, and the wallet that signs (the customer's first). */
export interface WalletTiedChange {
  change: ContactChange;
  walletAccountId: string;
}

/**
 * Whether the update changes a contact that OTP credentials of the customer's embedded wallets
 * use (spec §4.4): then it is the signed flow's. Null: an ordinary, synchronous update (an
 * unknown customer is left to it, for its 404).
 */
export async function walletTiedChangeOf(
  em: EntityManager,
  platformId: string,
  customerId: string,
  input: CustomerUpdateRequest,
): Promise<WalletTiedChange | null> {
  const customer = await em.findOne(Customer, { id: customerId, platformId, isDeleted: false });
  if (!customer) return null;
  const changes = contactChangesOf(input, customer);
  if (changes.length === 0) return null;
  const tied = await tiedOtpCredentials(em, platformId, customerId);
  const change = walletTiedContactChange(changes, new Set(tied.map((c) => c.type as ContactChange['credentialType'])));
  if (!change) return null;
  return { change, walletAccountId: tied.find((c) => c.type === change.credentialType)!.accountId };
}

/**
 * The signed contact change (spec §4.4 rules 1–3, 5). The first call checks the change can be made
 * (the value free, a wallet session able to sign) and answers the challenge, which binds the body
 * and the set of tied credentials of that channel. The signed retry — by an active session of the
 * customer's wallet — updates, in ONE database transaction (the one consuming the request), the
 * customer's field and every tied credential of the channel: all or nothing. A credential set that
 * changed since the challenge is 409 *_CREDENTIAL_SET_CHANGED.
 */
export async function changeWalletTiedContact(
  em: EntityManager,
  input: { platform: Platform; customerId: string; update: CustomerUpdateRequest; tied: WalletTiedChange; call: SignedCall; ctx: CustomerWriteContext },
): Promise<SignedOutcome<CustomerWrite>> {
  const { platform, customerId, tied } = input;
  const { change } = tied;
  const tiedSet = async (tx: EntityManager, lock = false) => tiedOtpCredentials(tx, platform.id, customerId, { type: change.credentialType, lock });
  const activity = contactChangeActivity(change, customerId);
  const operation: SignedOperation<CustomerWrite> = {
    name: 'CUSTOMER_CONTACT_UPDATE',
    activityType: activity.type,
    // One contact change waits for its signature at a time; the same call again gets the same challenge.
    conflictGroup: 'CUSTOMER_CONTACT_UPDATE',
    prepare: async (tx) => {
      await assertOtpContactFree(tx, platform.id, change.credentialType, change.value);
      const credentials = await tiedSet(tx);
      await assertWalletVerified(tx, platform.id, [...new Set(credentials.map((c) => c.accountId))]);
      return {
        parameters: activity.parameters,
        data: { field: change.field, credentialSet: credentialSetFingerprint(credentials.map((c) => c.id)) },
      };
    },
    execute: async (tx, signed) => {
      // The customer first, then its credentials: the order every contact change locks them in.
      await tx.findOne(Customer, { id: customerId, platformId: platform.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // Credential changes of the wallet wait for this one (and it for them).
      await lockCredentialSet(tx, tied.walletAccountId);
      const credentials = await tiedSet(tx, true);
      if (credentialSetFingerprint(credentials.map((c) => c.id)) !== signed.request.data?.credentialSet) {
        throw new DomainError(
          change.credentialType === 'EMAIL_OTP' ? 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' : 'SMS_OTP_CREDENTIAL_SET_CHANGED',
          `The wallet's ${change.credentialType} credentials changed after the challenge was issued: start the change again`,
        );
      }
      await assertOtpContactFree(tx, platform.id, change.credentialType, change.value);
      retargetOtpCredentials(credentials, change.value);
      await tx.flush();
      return updateCustomer(tx, platform, customerId, input.update, input.ctx);
    },
  };
  return runSignedOperation(em, { ...input.call, accountId: tied.walletAccountId }, operation);
}
