import { errorResponses } from '../../../api/schemas/common';
import type { AuthMethodType } from '../domain/auth-methods';
import type { SignedOutcome } from '../services/signed-requests';
import { AuthSignedRequestChallengeSchema } from './schemas';

/** The 401s of a signed operation, as its routes declare them. */
export const signed401 = {
  description:
    'UNAUTHORIZED (credentials; or a Request-Id naming no pending request of this operation, or one used or expired), REQUEST_ID_MISSING, WALLET_SIGNATURE_MISSING, WALLET_SIGNATURE_MALFORMED, WALLET_SIGNATURE_BODY_MISMATCH, WALLET_SIGNATURE_INVALID',
  schema: errorResponses[401].schema,
};

export const challenge202 = {
  description:
    'First call (no signature headers): sign payloadToSign with a session key of the wallet and repeat the request with Svc-Wallet-Signature and Request-Id',
  schema: AuthSignedRequestChallengeSchema,
};

/** A signed operation's reply: the 202 challenge (with the credential type, as auth endpoints answer it) or the effect's own status. */
export function signedReply<T>(outcome: SignedOutcome<T>, type: AuthMethodType, done: (result: T) => { status: number; body?: unknown }) {
  return outcome.status === 'CHALLENGE' ? { status: 202, body: { ...outcome.challenge, type } } : done(outcome.result);
}
