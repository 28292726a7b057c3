import type { ExecutionGate } from '../../../domain/execution-gate-contract';
import { PASS } from '../../../domain/execution-gate-contract';
import { InternalAccount } from '../../ledger';
import { SIGNED_REQUEST_TTL_MS } from '../domain/auth-methods';

/** Stable: the execute route approves this gate's holds by its name, and workflow histories record it. */
export const WALLET_SIGNATURE_GATE = 'wallet-signature';

/** A payment waits for its wallet's signature as long as the signed request its execute call is answered with. */
export const WALLET_SIGNATURE_HOLD_SECONDS = SIGNED_REQUEST_TTL_MS / 1000;

/**
 * No embedded wallet pays without its owner's signature. An execution from an EMBEDDED_WALLET
 * passes only approved: by the stamp over the quote's payloadToSign that the execute call brought
 * (checked before the execution is asked for), or by the signed retry of the request the hold was
 * answered with (the hold's approval). Otherwise the payment is held for `holdSeconds`, moving no
 * money, until that signed retry or the hold's expiry (the payment is then EXPIRED).
 */
export function walletSignatureGate(holdSeconds: number): ExecutionGate {
  return {
    name: WALLET_SIGNATURE_GATE,
    async check(em, subject, { approved }) {
      if (!subject.payerAccountId || approved) return PASS;
      if ((await em.findOne(InternalAccount, { id: subject.payerAccountId }))?.type !== 'EMBEDDED_WALLET') return PASS;
      return { hold: { status: 'PENDING_AUTHORIZATION', expiresInSeconds: holdSeconds, reason: "waiting for the wallet owner's signature" } };
    },
  };
}

export const walletSignature = walletSignatureGate(WALLET_SIGNATURE_HOLD_SECONDS);
