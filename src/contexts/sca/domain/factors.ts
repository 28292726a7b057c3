/** The Strong Customer Authentication factors (reference `ScaFactor`). */
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactorType = (typeof SCA_FACTORS)[number];

/** The factors a customer enrols explicitly; SMS_OTP is implicit from the verified phone. */
export const ENROLLABLE_FACTORS = ['TOTP', 'PASSKEY'] as const;
export type EnrollableFactor = (typeof ENROLLABLE_FACTORS)[number];

/** PENDING between the enrolment start and its confirmation; only ACTIVE factors prove anything. */
export type ScaFactorStatus = 'PENDING' | 'ACTIVE';

/** What an SCA challenge was issued for: a proof of one purpose never satisfies another. */
export type ScaChallengePurpose = 'LOGIN' | 'ENROLL_PASSKEY' | 'QUOTE' | 'BENEFICIARY_TRUST' | 'BENEFICIARY_UNTRUST';
