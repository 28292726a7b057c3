import type { ExternalAccount } from '../entities';
import { accountTypeSpec } from '../domain/account-types';
import type { AccountInfo } from '../domain/account-identity';

/** The rails a fiat account is reachable by, given which of its coordinates it has. */
function paymentRailsOf(info: AccountInfo): string[] | undefined {
  const spec = accountTypeSpec(info.accountType);
  if (spec?.kind !== 'FIAT') return undefined;
  const has = (field: string) => typeof info[field] === 'string';
  if (info.accountType === 'INR_ACCOUNT') return [...(has('vpa') ? ['UPI'] : []), ...(has('accountNumber') && typeof info.rail === 'string' && info.rail !== 'UPI' ? [info.rail] : [])];
  if (spec.paymentRails.includes('MOBILE_MONEY') && spec.paymentRails.length > 1) {
    const bank = has('accountNumber') || has('iban');
    return spec.paymentRails.filter((rail) => (rail === 'MOBILE_MONEY' ? has('phoneNumber') : bank));
  }
  return [...spec.paymentRails];
}

/** The API's ExternalAccount. */
export function externalAccountView(account: ExternalAccount) {
  const rails = paymentRailsOf(account.accountInfo);
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
