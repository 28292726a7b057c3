import { DomainError } from '../../../domain/errors';

/** The signature headers of a wallet operation, as received (the public name `Grid-Wallet-Signature` is accepted too). */
export interface SignatureHeaders {
  signature?: string | undefined;
  requestId?: string | undefined;
}

/**
 * Which leg a call is: the first (no signature headers: a challenge is issued) or the signed
 * retry (both). One header without the other is refused: a Request-Id alone names a challenge
 * nobody signed (401 WALLET_SIGNATURE_MISSING), a signature alone names no challenge
 * (401 REQUEST_ID_MISSING). An empty header counts as absent.
 */
export function signedLegOf(headers: SignatureHeaders): { leg: 'FIRST' } | { leg: 'RETRY'; signature: string; requestId: string } {
  const signature = headers.signature?.trim() || undefined;
  const requestId = headers.requestId?.trim() || undefined;
  if (signature && !requestId) {
    throw new DomainError('REQUEST_ID_MISSING', 'The signed retry needs the Request-Id header: the requestId of the 202 whose payloadToSign was signed');
  }
  if (requestId && !signature) {
    throw new DomainError('WALLET_SIGNATURE_MISSING', 'The Request-Id header came without Svc-Wallet-Signature: sign the payloadToSign and send the stamp');
  }
  return signature && requestId ? { leg: 'RETRY', signature, requestId } : { leg: 'FIRST' };
}
