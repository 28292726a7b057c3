export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'INACTIVE', 'UNDER_REVIEW'] as const;
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];
export type BankValidationStatus = 'PENDING' | 'PASSED' | 'FAILED';
export const OWNERSHIP_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
export type OwnershipMethod = (typeof OWNERSHIP_METHODS)[number];

/** The challenge of an ownership verification, as stored with the account. */
export interface OwnershipChallengeState {
  challengeId: string;
  method: OwnershipMethod;
  messageToSign?: string;
  verificationLink?: string;
  token?: string;
  expiresAt: string;
  state: 'OPEN' | 'EXPIRED' | 'PASSED' | 'FAILED';
}
