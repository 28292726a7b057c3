import type { ExternalAccount } from '../entities';
import { railsInUse } from '../domain/account-rails';

/** The API's ExternalAccount. */
export function externalAccountView(account: ExternalAccount) {
  const rails = railsInUse(account.accountInfo, account.paymentRails);
  return {
    id: account.id,
    customerId: account.customerId ?? null,
    status: account.status,
    ...(account.platformAccountId ? { platformAccountId: account.platformAccountId } : {}),
    ...(account.ownershipType ? { ownershipType: account.ownershipType } : {}),
    currency: account.currency,
    defaultUmaDepositAccount: account.defaultUmaDepositAccount,
    ...(account.beneficiaryVerificationStatus ? { beneficiaryVerificationStatus: account.beneficiaryVerificationStatus } : {}),
    ...(account.beneficiaryVerifiedName ? { beneficiaryVerifiedData: { fullName: account.beneficiaryVerifiedName } } : {}),
    accountInfo: { ...account.accountInfo, ...(rails ? { paymentRails: rails } : {}) },
  };
}

export type ExternalAccountView = ReturnType<typeof externalAccountView>;
