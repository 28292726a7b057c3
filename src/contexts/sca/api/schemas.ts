import { z } from '../../../api/openapi-registry';
import { ENROLLABLE_FACTORS, SCA_FACTORS } from '../domain/factors';

/** Every SCA operation names its customer in the query (as the reference does). */
export const ScaCustomerQuery = z.object({
  customerId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ description: 'The customer the operation is about', example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
});

const FactorEnum = z.enum(SCA_FACTORS).openapi('ScaFactor', { description: 'SMS_OTP (implicit from the verified phone), TOTP or PASSKEY' });

export const ScaFactorViewSchema = z
  .object({
    factor: FactorEnum,
    credentialId: z.string().optional().openapi({ description: 'PASSKEY only: the credential id (what DELETE /sca/factors/{credentialId} takes)' }),
    name: z.string().optional(),
  })
  .openapi('ScaFactorView');

export const ScaFactorListSchema = z.object({ factors: z.array(ScaFactorViewSchema) }).openapi('ScaFactorList');

export const ScaFactorEnrollRequestSchema = z
  .object({ type: z.enum(ENROLLABLE_FACTORS).openapi({ description: 'TOTP or PASSKEY (SMS_OTP is implicit and not enrolled)' }) })
  .strict()
  .openapi('ScaFactorEnrollRequest');

export const TotpEnrollmentStartSchema = z
  .object({
    type: z.literal('TOTP'),
    secret: z.string().openapi({ description: 'The shared secret; send it back with the first code to confirm' }),
    secretBase32Encoded: z.string().openapi({ description: 'The same secret, base32, for manual entry in an authenticator app' }),
    totpUri: z.string().openapi({ description: 'The otpauth:// provisioning URI (QR code payload)' }),
  })
  .openapi('TotpEnrollmentStart');

export const PasskeyEnrollmentStartSchema = z
  .object({
    type: z.literal('PASSKEY'),
    options: z.record(z.string(), z.unknown()).openapi({ description: 'WebAuthn PublicKeyCredentialCreationOptions (JSON)' }),
    allowedOrigins: z.array(z.string()),
    relyingPartyId: z.string(),
  })
  .openapi('PasskeyEnrollmentStart');

export const ScaFactorEnrollStartSchema = z
  .discriminatedUnion('type', [TotpEnrollmentStartSchema, PasskeyEnrollmentStartSchema])
  .openapi('ScaFactorEnrollStart');

const TotpConfirmSchema = z
  .object({
    type: z.literal('TOTP'),
    secret: z.string().min(1).max(200).openapi({ description: 'The secret the start returned' }),
    code: z
      .string()
      .regex(/^\d{6}$/, 'code must be six digits')
      .openapi({ description: 'The current code of the authenticator app', example: '123456' }),
  })
  .strict();

const PasskeyConfirmSchema = z
  .object({
    type: z.literal('PASSKEY'),
    origin: z.string().min(1).max(500).openapi({ description: 'The origin the credential was made on (one of allowedOrigins)' }),
    credential: z.record(z.string(), z.unknown()).openapi({ description: 'The WebAuthn registration response (JSON), unmodified' }),
  })
  .strict();

export const ScaFactorConfirmRequestSchema = z.discriminatedUnion('type', [TotpConfirmSchema, PasskeyConfirmSchema]).openapi('ScaFactorConfirmRequest');

export const ScaFactorConfirmResponseSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TOTP'), recoveryCodes: z.array(z.string()).openapi({ description: 'One-time recovery codes, shown only now' }) }),
    z.object({ type: z.literal('PASSKEY'), factor: ScaFactorViewSchema }),
  ])
  .openapi('ScaFactorConfirmResponse');

export const ScaCredentialParam = z.object({ credentialId: z.string().min(1).max(1024) });

export const ScaLoginStartRequestSchema = z.object({ factor: FactorEnum }).strict().openapi('ScaLoginStartRequest');

export const ScaLoginStartSchema = z
  .object({
    factor: FactorEnum,
    challengeId: z.string().nullable().optional(),
    expiresAt: z.iso.datetime().nullable().optional(),
    passkeyOptions: z.record(z.string(), z.unknown()).nullable().optional(),
    allowedOrigins: z.array(z.string()).nullable().optional(),
    relyingPartyId: z.string().nullable().optional(),
  })
  .openapi('ScaLoginStart');

/** The proof fields the reference's confirm / authorize / login-complete bodies share. */
export const ScaProofFields = {
  challengeId: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .openapi({ description: 'The challenge being answered: required for SMS_OTP; may be omitted for PASSKEY (the assertion names the challenge it signed)' }),
  code: z
    .string()
    .max(20)
    .nullable()
    .optional()
    .openapi({ description: "SMS_OTP or TOTP code (a TOTP login also takes one of the factor's recovery codes, once); sandbox: 123456", example: '123456' }),
  passkeyAssertion: z.record(z.string(), z.unknown()).nullable().optional().openapi({ description: 'WebAuthn authentication response (JSON)' }),
  origin: z.string().max(500).nullable().optional().openapi({ description: 'The origin the assertion was made on' }),
};

export const ScaLoginCompleteRequestSchema = z
  .object({
    factor: FactorEnum,
    endUserIpAddress: z.string().min(1).max(64).openapi({ description: "The end user's IP address", example: '203.0.113.42' }),
    ...ScaProofFields,
  })
  .strict()
  .openapi('ScaLoginCompleteRequest');

export const ScaLoginCompleteSchema = z
  .object({ status: z.string().openapi({ example: 'SUCCESS' }), sessionExpiresAt: z.iso.datetime().nullable().optional() })
  .openapi('ScaLoginComplete');

export const SECURITY_EVENTS = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;

export const RecordSecurityEventRequestSchema = z
  .object({ eventType: z.enum(SECURITY_EVENTS) })
  .strict()
  .openapi('RecordSecurityEventRequest');

export const RecordSecurityEventResponseSchema = z
  .object({ eventType: z.enum(SECURITY_EVENTS), suspended: z.boolean(), lockedUntil: z.iso.datetime().nullable().optional(), failedAttempts: z.number().int() })
  .openapi('RecordSecurityEventResponse');

export const TwoFactorResetStartRequestSchema = z.object({ factor: FactorEnum }).strict().openapi('TwoFactorResetStartRequest');

export const TwoFactorResetStartSchema = z
  .object({
    resetId: z.string(),
    livenessAccessToken: z.string().nullable().optional(),
    verificationLink: z.string().nullable().optional(),
    expiresAt: z.iso.datetime().nullable().optional(),
  })
  .openapi('TwoFactorResetStart');

export const TwoFactorResetStatusSchema = z
  .object({
    status: z.enum(['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED']),
    factor: FactorEnum,
    enrollmentStatus: z.enum(['PENDING', 'COMPLETED']).nullable().optional(),
    expiresAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable().optional(),
  })
  .openapi('TwoFactorResetStatus');

export const TwoFactorResetCompleteRequestSchema = z
  .object({
    mobile: z
      .object({
        countryCode: z
          .string()
          .regex(/^\+[1-9]\d{0,3}$/, 'countryCode must be + and the dialling code')
          .openapi({ example: '+44' }),
        number: z
          .string()
          .regex(/^\d{4,14}$/, 'number must be the national number, digits only')
          .openapi({ example: '7700900123' }),
      })
      .strict()
      // Together an E.164 number: at most 15 digits.
      .refine((m) => m.countryCode.length - 1 + m.number.length <= 15, {
        message: 'countryCode and number together must be at most 15 digits (E.164)',
        path: ['number'],
      })
      .optional(),
  })
  .strict()
  .openapi('TwoFactorResetCompleteRequest');

export const ResetIdParam = z.object({ resetId: z.string().min(1).max(200) });
