import { z } from '../../../api/openapi-registry';
import { IdParam } from '../../../api/schemas/common';
import { SignedRequestChallengeSchema } from '../../../api/wallet-signature';
import { AUTH_METHOD_TYPES } from '../domain/auth-methods';
import { CLIENT_PUBLIC_KEY_PATTERN } from '../domain/p256-keys';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const InternalAccountId = z
  .string()
  .regex(new RegExp(`^InternalAccount:${UUID}$`), { message: 'must be an internal account id, InternalAccount:<uuid>' })
  .openapi({ description: 'The EMBEDDED_WALLET internal account', example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' });

export const AuthMethodTypeSchema = z.enum(AUTH_METHOD_TYPES).openapi('AuthMethodType');

const otpCreate = (type: 'EMAIL_OTP' | 'SMS_OTP', name: string) =>
  z
    .object({ type: z.literal(type), accountId: InternalAccountId })
    .strict()
    .openapi(name, { description: `An ${type} credential to the ${type === 'EMAIL_OTP' ? 'email' : 'phone number'} of the wallet's owner` });

/** POST /auth/credentials (the passkey and OAuth variants join this union). */
export const AuthCredentialCreateSchema = z
  .discriminatedUnion('type', [otpCreate('EMAIL_OTP', 'EmailOtpCredentialCreateRequest'), otpCreate('SMS_OTP', 'SmsOtpCredentialCreateRequest')])
  .openapi('AuthCredentialCreateRequestOneOf');

const otpVerify = (type: 'EMAIL_OTP' | 'SMS_OTP', name: string) =>
  z
    .object({
      type: z.literal(type),
      encryptedOtpBundle: z.string().min(1).max(8192).openapi({
        description: 'JSON {encappedPublic, ciphertext} (hex): {otp_code, public_key} HPKE-sealed to the otpEncryptionTargetBundle',
        example: '{"encappedPublic":"04…","ciphertext":"1fa1…"}',
      }),
    })
    .strict()
    .openapi(name);

/** POST /auth/credentials/{id}/verify (the passkey and OAuth variants join this union). */
export const AuthCredentialVerifySchema = z
  .discriminatedUnion('type', [otpVerify('EMAIL_OTP', 'EmailOtpCredentialVerifyRequest'), otpVerify('SMS_OTP', 'SmsOtpCredentialVerifyRequest')])
  .openapi('AuthCredentialVerifyRequestOneOf');

const ClientPublicKey = z
  .string()
  .regex(CLIENT_PUBLIC_KEY_PATTERN, { message: 'must be a P-256 public key in hex: 02/03 + 64 hex digits (compressed)' })
  .openapi({ example: '02f45f2a22c908b9ce09a7150e514afd24627c401c38a4afc164e1ea783adaaa31' });

/** POST /auth/credentials/{id}/challenge: OTP credentials need no body (a passkey's clientPublicKey is read by its flow). */
export const AuthCredentialChallengeSchema = z.object({ clientPublicKey: ClientPublicKey.optional() }).strict().openapi('AuthCredentialChallengeRequest');

/** POST /auth/sessions/{id}/refresh. The session key is client-held: compressed keys only (README: deviations). */
export const AuthSessionRefreshSchema = z
  .object({
    clientPublicKey: z
      .string()
      .regex(/^0[23][0-9a-fA-F]{64}$/, { message: 'must be a compressed P-256 public key: 02/03 + 64 hex digits' })
      .openapi({
        description: 'The new session key (compressed P-256, hex); its private half stays on the device',
        example: '02f45f2a22c908b9ce09a7150e514afd24627c401c38a4afc164e1ea783adaaa31',
      }),
  })
  .strict()
  .openapi('AuthSessionRefreshRequest');

export const AccountQuerySchema = z.object({ accountId: InternalAccountId });

export const AuthMethodSchema = z
  .object({
    id: z.string().openapi({ example: 'AuthMethod:019542f5-b3e7-1d02-0000-000000000001' }),
    accountId: z.string(),
    type: AuthMethodTypeSchema,
    credentialId: z.string().optional().openapi({ description: "PASSKEY: the WebAuthn credential's id" }),
    nickname: z.string().openapi({ description: 'Email, E.164 phone, OIDC email or passkey name' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('AuthMethod');

export const AuthMethodResponseSchema = AuthMethodSchema.extend({
  otpEncryptionTargetBundle: z
    .string()
    .optional()
    .openapi({ description: 'OTP credentials: JSON {version, data, dataSignature, enclaveQuorumPublic}; data is the hex of {targetPublic}' }),
}).openapi('AuthMethodResponse');

export const AuthSessionSchema = AuthMethodSchema.extend({
  id: z.string().openapi({ example: 'Session:019542f5-b3e7-1d02-0000-000000000011' }),
  expiresAt: z.iso.datetime(),
}).openapi('AuthSession');

// The 202 every signed operation answers, of any context: one schema (src/api/wallet-signature.ts).
export { SignedRequestChallengeSchema };

export const AuthSignedRequestChallengeSchema = SignedRequestChallengeSchema.extend({ type: AuthMethodTypeSchema }).openapi('AuthSignedRequestChallenge');

export const AuthCredentialListSchema = z.object({ data: z.array(AuthMethodSchema) }).openapi('AuthCredentialListResponse');
export const SessionListSchema = z.object({ data: z.array(AuthSessionSchema) }).openapi('SessionListResponse');

export const CredentialIdParam = IdParam('id');
export const SessionIdParam = IdParam('id');
