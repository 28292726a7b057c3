import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { signedCallOf, walletCallOf, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { DomainError } from '../../../domain/errors';
import { isOtpType } from '../domain/auth-methods';
import { createOtpCredential, findCredential, listCredentials, revokeCredential } from '../services/credentials';
import { issueOtpChallenge } from '../services/otp-challenges';
import { verifyOtpCredential } from '../services/otp-logins';
import { credentialView } from '../services/views';
import { createExternalCredential } from '../services/external-credentials';
import { verifyOauth } from '../services/oauth-credentials';
import { issuePasskeyChallenge, verifyPasskey } from '../services/passkey-credentials';
import { walletAuthConfigOf } from './wallet-auth-config';
import { challenge202, signed401, signedReply } from './responses';
import {
  AccountQuerySchema,
  AuthCredentialChallengeSchema,
  AuthCredentialCreateSchema,
  AuthCredentialListSchema,
  AuthCredentialVerifySchema,
  AuthMethodResponseSchema,
  AuthSessionSchema,
  CredentialIdParam,
  PasskeyAuthChallengeSchema,
} from './schemas';

const TAGS = ['Embedded Wallet Auth'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });
const conflict = (description: string) => ({ description, schema: errorResponses[400].schema });

export const credentialRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/credentials',
    operationId: 'createAuthCredential',
    summary: 'Create an authentication credential',
    description:
      "Registers an EMAIL_OTP or SMS_OTP credential to the owner's email or phone, a PASSKEY (its attestation checked against the platform's challenge) or an OAUTH identity (a fresh OIDC token). The wallet's first credential is created at once; an additional one is signed by a session of the wallet (202, then the signed retry).",
    tags: TAGS,
    body: AuthCredentialCreateSchema,
    headers: WalletSignatureHeadersSchema,
    responses: {
      201: { description: 'The credential (its first challenge issued when it is the wallet’s first)', schema: AuthMethodResponseSchema },
      202: challenge202,
      400: bad(
        'INVALID_INPUT, EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS, SMS_OTP_CREDENTIAL_ALREADY_EXISTS, MISSING_MANDATORY_USER_INFO (the owner has no email / phone)',
      ),
      401: signed401,
      404: errorResponses[404],
      409: conflict(
        'WALLET_NOT_PROVISIONED (no embedded wallet), OPERATION_IN_PROGRESS (another credential change waits for its signature), EMAIL_OTP_CREDENTIAL_SET_CHANGED / SMS_OTP_CREDENTIAL_SET_CHANGED (the credentials changed between the legs)',
      ),
    },
    handler: async ({ em, caller, body, req, deps }) => {
      if (body.type === 'PASSKEY' || body.type === 'OAUTH') {
        const created = await createExternalCredential(em, signedCallOf(req, caller, body.accountId), body, {
          config: walletAuthConfigOf(deps),
          environment: caller.environment,
        });
        return signedReply(created, body.type, (credential) => ({ status: 201, body: credential }));
      }
      const outcome = await createOtpCredential(em, signedCallOf(req, caller, body.accountId), body.type, {
        masterKey: deps.config.masterKey,
        environment: caller.environment,
        sender: deps.contactCodeSender,
      });
      return signedReply(outcome, body.type, (credential) => ({ status: 201, body: credential }));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/credentials',
    operationId: 'listAuthCredentials',
    summary: 'List authentication credentials',
    description: "The live credentials of one of the platform's embedded wallets (not paginated; an unknown account has none)",
    tags: TAGS,
    query: AccountQuerySchema,
    responses: { 200: { description: 'The credentials', schema: AuthCredentialListSchema }, 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: { data: await listCredentials(em, caller.platformId, query.accountId) } }),
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/credentials/:id',
    operationId: 'revokeAuthCredential',
    summary: 'Revoke an authentication credential',
    description: "Revokes a credential and its sessions; signed by a session of another of the wallet's credentials (202, then the signed retry)",
    tags: TAGS,
    params: CredentialIdParam,
    headers: WalletSignatureHeadersSchema,
    responses: {
      202: challenge202,
      204: { description: 'Revoked' },
      400: bad("INVALID_INPUT (the wallet's last credential)"),
      401: signed401,
      404: errorResponses[404],
      409: conflict('OPERATION_IN_PROGRESS (another credential change waits for its signature)'),
    },
    handler: async ({ em, caller, params, req }) => {
      const credential = await findCredential(em, caller.platformId, params.id);
      return signedReply(await revokeCredential(em, walletCallOf(req, caller), params.id), credential.type, () => ({ status: 204 }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/credentials/:id/challenge',
    operationId: 'challengeAuthCredential',
    summary: 'Re-issue an authentication credential challenge',
    description:
      'OTP credentials: a new one-time code is sent (sandbox: always 000000, not sent) and a new otpEncryptionTargetBundle returned; earlier ones stop working. PASSKEY: a challenge bound to clientPublicKey, with the requestId the verify echoes',
    tags: TAGS,
    params: CredentialIdParam,
    body: AuthCredentialChallengeSchema,
    responses: {
      200: {
        description: 'OTP: the credential with its new otpEncryptionTargetBundle; PASSKEY: the challenge',
        schema: z.union([AuthMethodResponseSchema, PasskeyAuthChallengeSchema]),
      },
      400: bad('INVALID_INPUT (an OAUTH credential has no challenge step)'),
      404: errorResponses[404],
      429: {
        description: 'RATE_LIMITED: too many one-time codes for this credential (5 per 15 minutes); retry after Retry-After seconds',
        schema: errorResponses[400].schema,
      },
      501: { description: 'NOT_IMPLEMENTED: no email/SMS delivery configured (production)', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, body, deps }) => {
      const credential = await findCredential(em, caller.platformId, params.id);
      if (credential.type === 'PASSKEY') {
        if (!body.clientPublicKey) {
          throw DomainError.invalidInput([
            { field: 'clientPublicKey', constraint: 'required', message: 'a passkey challenge is bound to the client key its session key will be sealed to' },
          ]);
        }
        return { status: 200, body: { ...credentialView(credential), ...(await issuePasskeyChallenge(em, credential, body.clientPublicKey.toLowerCase())) } };
      }
      if (!isOtpType(credential.type)) {
        throw credential.type === 'OAUTH'
          ? DomainError.invalidInput([{ field: 'id', constraint: 'type', message: 'OAUTH credentials have no challenge: verify with a fresh OIDC token' }])
          : new DomainError('NOT_IMPLEMENTED', `${credential.type} challenges are not available in this version`);
      }
      const challenge = await issueOtpChallenge(em, credential, {
        masterKey: deps.config.masterKey,
        environment: caller.environment,
        sender: deps.contactCodeSender,
      });
      const fresh = await findCredential(em.fork(), caller.platformId, params.id);
      return { status: 200, body: { ...credentialView(fresh), ...challenge } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/credentials/:id/verify',
    operationId: 'verifyAuthCredential',
    summary: 'Verify an authentication credential',
    description:
      'OTP: the first call checks the sealed code and answers a payload bound to the public_key inside it (202); the retry stamped with that key opens the session (200). PASSKEY: the assertion over the challenge the Request-Id names; OAUTH: a fresh token whose nonce is the SHA-256 of clientPublicKey. Both answer the session with its key sealed to the clientPublicKey (encryptedSessionSigningKey)',
    tags: TAGS,
    params: CredentialIdParam,
    body: AuthCredentialVerifySchema,
    headers: WalletSignatureHeadersSchema,
    responses: {
      200: { description: 'The new session (its key is the one the client sealed with the code)', schema: AuthSessionSchema },
      202: challenge202,
      400: bad('INVALID_INPUT (type is not the credential’s)'),
      401: { description: `Invalid OTP code, no outstanding code, or: ${signed401.description}`, schema: errorResponses[401].schema },
      404: errorResponses[404],
      409: conflict('EMAIL_OTP_CREDENTIAL_SET_CHANGED / SMS_OTP_CREDENTIAL_SET_CHANGED: the wallet’s credentials changed after the code was issued'),
    },
    handler: async ({ em, caller, params, body, req, deps }) => {
      if (body.type === 'PASSKEY' || body.type === 'OAUTH') {
        const credential = await findCredential(em, caller.platformId, params.id);
        if (credential.type !== body.type)
          throw DomainError.invalidInput([{ field: 'type', constraint: 'enum', message: `the credential is ${credential.type}` }]);
        const config = walletAuthConfigOf(deps);
        const session =
          body.type === 'PASSKEY'
            ? await verifyPasskey(em, config, caller.environment, credential, req.get('request-id') ?? undefined, body.assertion)
            : await verifyOauth(em, config, caller.environment, credential, body);
        return { status: 200, body: session };
      }
      const outcome = await verifyOtpCredential(em, walletCallOf(req, caller), {
        credentialId: params.id,
        type: body.type,
        encryptedOtpBundle: body.encryptedOtpBundle,
        masterKey: deps.config.masterKey,
      });
      return signedReply(outcome, body.type, (session) => ({ status: 200, body: session }));
    },
  }),
];
