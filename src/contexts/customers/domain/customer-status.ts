/** The customer's kind and KYC status: the entity stores them, the onboarding rules read them. */
export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';
export type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';
