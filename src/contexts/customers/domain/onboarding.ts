import type { CustomerType, KycStatus } from './customer-status';

/** An accepted agreement, one entry per type (spec §2.7: latest acceptance each). */
export interface AgreementConsent {
  agreementType: string;
  termsVersion: string;
  acceptedAt: string;
  ipAddress: string;
  acceptanceMethod: 'CHECKBOX' | 'CLICK_TO_ACCEPT';
}

export const END_USER_TERMS = 'SVC_END_USER_TERMS';

type PlatformKind = { isRegulatedFinancialInstitution: boolean };
type Standing = { kycStatus: KycStatus; agreementConsents: AgreementConsent[] };

/**
 * Why a customer may not hold balances or move money, as the reference's 403 code, or null when
 * it may: KYC/KYB must be APPROVED, and on platforms that are not regulated institutions the
 * service's end-user terms must be accepted.
 */
export function balanceRefusal(platform: PlatformKind, customer: Standing): 'USER_NOT_READY' | 'END_USER_TERMS_NOT_ACCEPTED' | null {
  if (customer.kycStatus !== 'APPROVED') return 'USER_NOT_READY';
  if (!platform.isRegulatedFinancialInstitution && !customer.agreementConsents.some((c) => c.agreementType === END_USER_TERMS))
    return 'END_USER_TERMS_NOT_ACCEPTED';
  return null;
}

/** Whether a customer may hold balances, and so have internal accounts. */
export function mayHoldBalances(platform: PlatformKind, customer: Standing): boolean {
  return balanceRefusal(platform, customer) === null;
}

/** The webhook announcing a customer's new KYC/KYB status; UNVERIFIED and HOLD have none. */
export function kycEventType(customerType: CustomerType, status: KycStatus): string | null {
  if (status !== 'PENDING' && status !== 'APPROVED' && status !== 'REJECTED') return null;
  return `CUSTOMER.${customerType === 'BUSINESS' ? 'KYB' : 'KYC'}_${status}`;
}

/** Last three characters of a sandbox magic value (a name or registration number). */
export function sandboxSuffix(value: string | null | undefined): string {
  return (value ?? '').trim().slice(-3);
}

/**
 * Sandbox KYC status at creation. Individuals on a regulated platform resolve at creation by the
 * last three characters of fullName (001 PENDING, 002 REJECTED, 003 UNVERIFIED, else APPROVED);
 * everyone else starts UNVERIFIED and resolves through POST /verifications.
 */
export function sandboxKycStatusAtCreation(
  platform: { isRegulatedFinancialInstitution: boolean },
  customer: { customerType: CustomerType; fullName?: string | null },
): KycStatus {
  if (customer.customerType === 'BUSINESS' || !platform.isRegulatedFinancialInstitution) return 'UNVERIFIED';
  switch (sandboxSuffix(customer.fullName)) {
    case '001':
      return 'PENDING';
    case '002':
      return 'REJECTED';
    case '003':
      return 'UNVERIFIED';
    default:
      return 'APPROVED';
  }
}
