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

const b64url = (what: string, max = 8192) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: `${what} must be base64url` });

const PASSKEY_NICKNAME = /^[\p{L}\p{N} ._'()-]+$/u;
const PasskeyNickname = z
  .string()
  .min(1)
  .max(100)
  .regex(PASSKEY_NICKNAME, { message: "letters, digits, spaces and . _ - ' ( ) only" })
  // The document's pattern is the source alone: the generator would write the flags into it (`…$/u`), which no string matches.
  .openapi({ description: 'The passkey name the user chose (1–100 characters)', pattern: PASSKEY_NICKNAME.source });

export const PasskeyAttestationSchema = z
  .object({
    credentialId: b64url('credentialId', 1024),
    clientDataJson: b64url('clientDataJson'),
    attestationObject: b64url('attestationObject', 16384),
    transports: z
      .array(z.enum(['usb', 'nfc', 'ble', 'internal', 'hybrid']))
      .max(5)
      .optional(),
  })
  .strict()
  .openapi('PasskeyAttestation');

const passkeyCreate = z
  .object({
    type: z.literal('PASSKEY'),
    accountId: InternalAccountId,
    nickname: PasskeyNickname,
    challenge: b64url('challenge', 1024).openapi({ description: 'The registration challenge (base64url) the platform gave navigator.credentials.create()' }),
    attestation: PasskeyAttestationSchema,
  })
  .strict()
  .openapi('PasskeyCredentialCreateRequest');

const oidcToken = z.string().min(1).max(16384).openapi({ description: 'An OIDC ID token (JWT) of a supported issuer, at most 60 s old' });

const oauthCreate = z
  .object({ type: z.literal('OAUTH'), accountId: InternalAccountId, oidcToken })
  .strict()
  .openapi('OauthCredentialCreateRequest');

/** POST /auth/credentials (the passkey and OAuth variants join this union). */
export const AuthCredentialCreateSchema = z
  .discriminatedUnion('type', [
    otpCreate('EMAIL_OTP', 'EmailOtpCredentialCreateRequest'),
    otpCreate('SMS_OTP', 'SmsOtpCredentialCreateRequest'),
    passkeyCreate,
    oauthCreate,
  ])
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

export const PasskeyAssertionSchema = z
  .object({
    credentialId: b64url('credentialId', 1024),
    clientDataJson: b64url('clientDataJson'),
    authenticatorData: b64url('authenticatorData'),
    signature: z.string().min(1).max(1024),
    userHandle: z.string().max(1024).optional(),
  })
  .strict()
  .openapi('PasskeyAssertion');

const passkeyVerify = z
  .object({ type: z.literal('PASSKEY'), assertion: PasskeyAssertionSchema })
  .strict()
  .openapi('PasskeyCredentialVerifyRequest');

const oauthVerify = z
  .object({
    type: z.literal('OAUTH'),
    oidcToken,
    clientPublicKey: z
      .string()
      .regex(CLIENT_PUBLIC_KEY_PATTERN, { message: 'must be a P-256 public key in hex: 02/03 + 64 or 04 + 128 hex digits' })
      .openapi({ description: 'A fresh P-256 key of the device: the token nonce is its SHA-256, and the session key is sealed to it' }),
  })
  .strict()
  .openapi('OauthCredentialVerifyRequest');

/** POST /auth/credentials/{id}/verify (the passkey and OAuth variants join this union). */
export const AuthCredentialVerifySchema = z
  .discriminatedUnion('type', [
    otpVerify('EMAIL_OTP', 'EmailOtpCredentialVerifyRequest'),
    otpVerify('SMS_OTP', 'SmsOtpCredentialVerifyRequest'),
    passkeyVerify,
    oauthVerify,
  ])
  .openapi('AuthCredentialVerifyRequestOneOf');

const ClientPublicKey = z
  .string()
  .regex(CLIENT_PUBLIC_KEY_PATTERN, { message: 'must be a P-256 public key in hex: 02/03 + 64 hex digits (compressed)' })
  .openapi({ example: '02f45f2a22c908b9ce09a7150e514afd24627c401c38a4afc164e1ea783adaaa31' });

/** POST /auth/credentials/{id}/challenge: OTP credentials need no body (a passkey's clientPublicKey is read by its flow). */
export const AuthCredentialChallengeSchema = z.object({ clientPublicKey: ClientPublicKey.optional() }).strict().openapi('AuthCredentialChallengeRequest');

/** POST /auth/sessions/{id}/refresh. The session key is client-held: compressed keys only (docs/deviations.md). */
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
  encryptedSessionSigningKey: z.string().optional().openapi({
    description:
      'PASSKEY and OAUTH logins: the session private key, HPKE-sealed to clientPublicKey (base58check of the compressed encapsulated key and the ciphertext)',
  }),
}).openapi('AuthSession');

export const PasskeyAuthChallengeSchema = AuthMethodSchema.extend({
  credentialId: z.string().openapi({ description: "The passkey's WebAuthn credential id (allowCredentials)" }),
  challenge: z.string().openapi({ description: 'Lowercase hex SHA-256 of the session-creation request; the authenticator signs its UTF-8 bytes' }),
  requestId: z.string().openapi({ description: 'Echo it in the verify call’s Request-Id header' }),
  expiresAt: z.iso.datetime(),
}).openapi('PasskeyAuthChallenge');

// The 202 every signed operation answers, of any context: one schema (src/api/wallet-signature.ts).
export { SignedRequestChallengeSchema };

export const AuthSignedRequestChallengeSchema = SignedRequestChallengeSchema.extend({ type: AuthMethodTypeSchema }).openapi('AuthSignedRequestChallenge');

export const AuthCredentialListSchema = z.object({ data: z.array(AuthMethodSchema) }).openapi('AuthCredentialListResponse');
export const SessionListSchema = z.object({ data: z.array(AuthSessionSchema) }).openapi('SessionListResponse');

export const CredentialIdParam = IdParam('id');
export const SessionIdParam = IdParam('id');
