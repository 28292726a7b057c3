import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { PaymentExecution } from '../../../../workflows/payments/definitions';
import { InternalAccount } from '../../ledger';
import {
  releaseSignedRequest,
  runSignedOperation,
  verifySingleShotStamp,
  WALLET_SIGNATURE_GATE,
  type SignedCall,
  type SignedOperation,
  type SignedRequestChallenge,
} from '../../wallet-auth';
import { decideHold, executeThroughPaymentWorkflow } from '../starters/payment';
import { WALLET_PAYMENT_ACTIVITY } from '../domain/wallet-payload';
import type { Quote } from '../entities';
import { workflowInput } from './quote-workflow-input';

/** The signed operation of a wallet payment's 202 → signed retry. */
const WALLET_PAYMENT = 'QUOTE_EXECUTE';

export interface WalletExecutionDeps {
  temporal: Client;
  taskQueue?: string;
}

/** What an execution from a wallet answers: the payment as it went (executed, or held by a later gate), or the challenge to sign. */
export type WalletExecutionOutcome = { executed: PaymentExecution } | { challenge: SignedRequestChallenge };

/** The quote's paying EMBEDDED_WALLET, or null when its source is anything else. */
export async function walletSourceOf(em: EntityManager, quote: Quote): Promise<InternalAccount | null> {
  const accountId = quote.source.sourceType === 'ACCOUNT' ? String(quote.source.accountId) : '';
  if (!accountId.startsWith('InternalAccount:')) return null;
  const account = await em.findOne(InternalAccount, { id: accountId, platformId: quote.platformId });
  return account?.type === 'EMBEDDED_WALLET' ? account : null;
}

/**
 * Executes a quote paid from an embedded wallet (spec §4.3, §5.3). Three legs:
 * - a single-shot stamp (Svc-Wallet-Signature over the quote's payloadToSign, no Request-Id): the
 *   stamp is checked first (a bad one is its 401 and nothing is asked of the payment), then the
 *   quote is executed with the wallet-signature gate approved — at once, as the reference does;
 * - no signature: the execution is asked for, the gate holds the payment (PENDING_AUTHORIZATION,
 *   nothing moved) and the call is answered with a signed request (202); a repeat of that call
 *   (same Idempotency-Key, same body) gets the same challenge;
 * - the signed retry (stamp + Request-Id): the mechanism checks it and consumes the request (of
 *   concurrent retries exactly one), then the hold is approved (decideHold, its update id the
 *   request's id): the payment resumes exactly once, every other retry of the request is refused.
 */
export async function executeFromWallet(
  em: EntityManager,
  deps: WalletExecutionDeps,
  input: { quote: Quote; call: SignedCall; requestKey: string },
): Promise<WalletExecutionOutcome> {
  const { quote, call } = input;
  if (call.requestId !== undefined) {
    const outcome = await runSignedOperation(em, call, walletPayment(quote));
    if (outcome.status === 'DONE') return { executed: await approveHold(em, deps, quote, outcome.result) };
  }
  if (call.signature !== undefined && call.requestId === undefined) {
    await verifySingleShotStamp(em, { ...call, payload: quote.walletPayloadToSign, signature: call.signature });
    return { executed: await execute(deps, quote, input.requestKey, [WALLET_SIGNATURE_GATE]) };
  }
  const executed = await execute(deps, quote, input.requestKey);
  if (executed.held?.gate !== WALLET_SIGNATURE_GATE) return { executed };
  const outcome = await runSignedOperation(em, call, walletPayment(quote));
  return outcome.status === 'CHALLENGE' ? { challenge: outcome.challenge } : { executed: await approveHold(em, deps, quote, outcome.result) };
}

/**
 * The signed retry consumed its request: the hold is approved (the update id is the request's, so
 * the approval is one even if asked twice). Asked after the request's transaction committed, so
 * that no database transaction waits on the payment's workflow (whose step needs the database);
 * if the approval fails (the payment is no longer held, or the engine is unreachable), the request
 * is given back unused: the signature approved nothing.
 */
async function approveHold(em: EntityManager, deps: WalletExecutionDeps, quote: Quote, requestId: string): Promise<PaymentExecution> {
  try {
    return await decideHold(deps.temporal, quote.transactionId, { gate: WALLET_SIGNATURE_GATE, decision: 'APPROVE', decisionId: requestId });
  } catch (err) {
    await releaseSignedRequest(em, requestId);
    throw err;
  }
}

function execute(deps: WalletExecutionDeps, quote: Quote, requestKey: string, approved?: string[]): Promise<PaymentExecution> {
  return executeThroughPaymentWorkflow(deps.temporal, workflowInput(quote), {
    requestKey,
    ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
    ...(approved ? { approved } : {}),
  });
}

function walletPayment(quote: Quote): SignedOperation<string> {
  return {
    name: WALLET_PAYMENT,
    activityType: WALLET_PAYMENT_ACTIVITY,
    // One waiting signature per quote: a repeated first call gets it again.
    conflictGroup: `${WALLET_PAYMENT}:${quote.id}`,
    // The payment's terms, as the quote's own payloadToSign states them, so the owner sees what is signed.
    prepare: async () => ({
      parameters: quote.walletPayloadToSign ? (JSON.parse(quote.walletPayloadToSign) as { parameters: Record<string, unknown> }).parameters : {},
    }),
    // Consuming the request is the effect in the database; the approval follows its commit (approveHold).
    execute: async (_tx, signed) => signed.request.id,
  };
}
