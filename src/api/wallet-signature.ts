import type { Request } from 'express';
import type { Caller } from './context';
import { z } from './openapi-registry';
import type { SignedCall } from '../contexts/wallet-auth';

/**
 * The signature headers of a signed wallet operation (spec §5.3). `Svc-Wallet-Signature` is the
 * service's name; the reference's `Grid-Wallet-Signature` is accepted too.
 */
export function walletSignatureHeadersOf(req: Request): { signature?: string; requestId?: string } {
  const signature = req.get('svc-wallet-signature') ?? req.get('grid-wallet-signature');
  const requestId = req.get('request-id');
  return { ...(signature !== undefined ? { signature } : {}), ...(requestId !== undefined ? { requestId } : {}) };
}

/**
 * A route's call of runSignedOperation: the caller's platform, the wallet, and the request as
 * received (method, path without query, parsed body) which the signed retry must repeat.
 */
export function signedCallOf(req: Request, caller: Caller, accountId: string): SignedCall {
  return { ...walletCallOf(req, caller), accountId };
}

/** The same, for services that find the wallet themselves (from the credential or session in the path). */
export function walletCallOf(req: Request, caller: Caller): Omit<SignedCall, 'accountId'> {
  return {
    platformId: caller.platformId,
    environment: caller.environment,
    method: req.method,
    path: req.originalUrl.split('?')[0]!,
    body: req.body ?? null,
    ...walletSignatureHeadersOf(req),
  };
}

/** The headers a signed operation documents (route option `headers`). */
export const WalletSignatureHeadersSchema = z.object({
  'Svc-Wallet-Signature': z.string().optional().openapi({
    description:
      'Signed retry only: the stamp over the payloadToSign of the 202 (base64url of {publicKey, scheme, signature}); Grid-Wallet-Signature is accepted too',
  }),
  'Request-Id': z.string().optional().openapi({ description: 'Signed retry only: the requestId of the 202, paired with Svc-Wallet-Signature' }),
});

/** The 202 of a signed operation's first call (the reference's SignedRequestChallenge), for the routes of every context. */
export const SignedRequestChallengeSchema = z
  .object({
    payloadToSign: z.string().openapi({ description: 'Sign exactly these bytes (UTF-8) with the session key' }),
    requestId: z.string().openapi({ description: 'Echo it in Request-Id on the signed retry', example: 'Request:7c4a8d09-ca37-4e3e-9e0d-8c2b3e9a1f21' }),
    expiresAt: z.iso.datetime().openapi({ description: 'The signed retry must come before this time' }),
  })
  .openapi('SignedRequestChallenge');
