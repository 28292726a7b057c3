import { z } from '../../../api/openapi-registry';

/** The reference's ScaChallenge: what a customer answers with a proof (a quote's authorization, a beneficiary's trust). */
export const ScaChallengeSchema = z
  .object({
    id: z.string(),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    factor: z.enum(['SMS_OTP', 'TOTP', 'PASSKEY']),
    availableFactors: z.array(z.enum(['SMS_OTP', 'TOTP', 'PASSKEY'])),
    purpose: z.string().nullable().optional().openapi({ description: 'What the challenge authorizes (a quote: FX_CONVERSION or PAYOUT)' }),
    passkeyAssertionOptions: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: 'PASSKEY: the WebAuthn assertion options; their challenge covers the amount and payee' }),
    passkeyAllowedOrigins: z.array(z.string()).nullable().optional(),
  })
  .openapi('ScaChallenge');
