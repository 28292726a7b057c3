import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../../customers';
import type { ExternalAccount } from '../../external-accounts';
import type { Platform } from '../../platforms';
import {
  challengePurposes,
  challengeTtlMs,
  issueScaChallenge,
  nextStep,
  paymentBinding,
  paymentContext,
  paymentFactor,
  SCA_CODE_TTL_MS,
  ScaFactor,
  scaProofError,
  scaRequired,
  verifyScaProof,
  type ChallengeKind,
  type ScaCodeSender,
  type ScaProof,
} from '../../sca';
import { currencyView } from '../../../domain/currencies';
import { DomainError } from '../../../domain/errors';
import { Quote, Transaction } from '../entities';
import { isPending, type QuoteChallenge } from '../domain/quote-challenge';
import { assertTransition } from '../domain/transaction-state';

/**
 * Strong Customer Authentication of quotes (PSD2): the challenges a quote carries while
 * PENDING_AUTHORIZATION, issued through the sca context bound to the quote's amount and payee
 * (dynamic linking), and what an authorized challenge does to the quote.
 */

/** What issuing a challenge needs: the master key (codes are kept as keyed hashes), the SMS sender outside the sandbox, a lifetime (tests shorten it). */
export interface ChallengeDeps {
  masterKey: Buffer;
  sender?: ScaCodeSender;
  ttlMs?: number;
}

/** Whether a real-time quote must be authorized before its payment instructions are given: a customer of an SCA region, paying a beneficiary it does not trust. */
export function fundingNeedsAuthorization(platform: Platform, customer: Customer | null, destination: ExternalAccount | null): boolean {
  if (!customer || destination?.trusted) return false;
  return scaRequired(platform.region, customer.regionCode);
}

const payeeOf = (q: Quote): string => String(q.destination.umaAddress ?? q.destination.accountId);

/** The challenge's binding for the quote as it is: a proof counts only for this amount and this payee. */
function bindingOf(q: Quote, purpose: string): string {
  return paymentBinding({ quoteId: q.id, purpose, currency: q.sendingCurrency, amount: q.totalSendingAmount, payee: payeeOf(q) });
}

function amountText(q: Quote): string {
  const decimals = currencyView(q.sendingCurrency).decimals;
  const s = q.totalSendingAmount.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

/**
 * Issues the first of the quote's challenges (of `kind`) and records it on the quote, with the
 * quote locked. A quote that was challenged already keeps what it carries (a later step, or the
 * authorized last one): a retried execute or creation answers the same challenge and never
 * issues a second sequence. The quote must be PENDING_AUTHORIZATION.
 */
export async function challengeQuote(em: EntityManager, quoteId: string, kind: ChallengeKind, deps: ChallengeDeps): Promise<QuoteChallenge> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOneOrFail(Quote, { id: quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (quote.scaChallenge?.kind === kind) return quote.scaChallenge;
    if (quote.status !== 'PENDING_AUTHORIZATION' || !quote.customerId) throw new DomainError('CONFLICT', 'The quote is not waiting for an authorization');
    return issueStep(tx, quote, kind, 0, deps);
  });
}

async function issueStep(
  tx: EntityManager,
  quote: Quote,
  kind: ChallengeKind,
  step: number,
  deps: ChallengeDeps,
  authorized: string[] = [],
): Promise<QuoteChallenge> {
  const purposes = challengePurposes(kind, quote.sendingCurrency, quote.receivingCurrency);
  const purpose = purposes[step]!;
  const factor = paymentFactor(quote.scaFactor);
  const now = new Date();
  const binding = bindingOf(quote, purpose);
  const issued = await issueScaChallenge(tx, {
    platformId: quote.platformId,
    customerId: quote.customerId!,
    purpose: 'QUOTE',
    factor,
    binding,
    context: paymentContext(
      { quoteId: quote.id, purpose, currency: quote.sendingCurrency, amount: quote.totalSendingAmount, payee: payeeOf(quote) },
      amountText(quote),
    ),
    environment: quote.environment,
    masterKey: deps.masterKey,
    ...(deps.sender ? { sender: deps.sender } : {}),
    ttlMs: challengeTtlMs(now, deps.ttlMs ?? SCA_CODE_TTL_MS, kind === 'QUOTE_FUNDING' ? quote.expiresAt : null),
    now,
  });
  const passkey = await tx.findOne(ScaFactor, { platformId: quote.platformId, customerId: quote.customerId!, type: 'PASSKEY', status: 'ACTIVE' });
  const challenge: QuoteChallenge = {
    id: issued.id,
    expiresAt: issued.expiresAt.toISOString(),
    factor,
    availableFactors: passkey ? ['SMS_OTP', 'PASSKEY'] : ['SMS_OTP'],
    purpose,
    passkeyAssertionOptions: issued.passkeyOptions ?? null,
    passkeyAllowedOrigins: issued.allowedOrigins ?? null,
    kind,
    step,
    purposes,
    authorized,
  };
  quote.scaChallenge = challenge;
  quote.updatedAt = now;
  await tx.flush();
  return challenge;
}

/** What an authorize attempt came to: authorized (with the quote's next challenge, if any), or refused with a §7 error. */
export type AuthorizeOutcome =
  | { authorized: true; next?: QuoteChallenge }
  | { authorized: false; refusal: { code: string; message: string; details?: Record<string, unknown> }; burned: boolean };

const refused = (err: DomainError, burned = false): AuthorizeOutcome => ({
  authorized: false,
  refusal: { code: err.code, message: err.reason, ...(err.details ? { details: err.details } : {}) },
  burned,
});

/**
 * Checks a proof for the quote's current challenge with the sca context's one verifier (bound
 * to the quote's amount and payee as they are now) and, in the same database transaction, moves
 * the quote on: the next challenge of its sequence, or, after the last one, a real-time quote
 * back to PENDING (its payment instructions are shown) — a held execution is released by its
 * payment's workflow. A wrong proof is counted by the verifier and is not undone; `burned` says
 * the challenge took its last wrong proof.
 */
export async function authorizeQuoteChallenge(
  em: EntityManager,
  input: { quoteId: string; challengeId: string; proof: ScaProof },
  deps: ChallengeDeps,
): Promise<AuthorizeOutcome> {
  const quote = await em.findOneOrFail(Quote, { id: input.quoteId });
  const current = quote.scaChallenge;
  // Authorized by an earlier attempt of this step (a local activity runs again when its workflow task is retried): the same answer.
  if (current?.authorized?.includes(input.challengeId))
    return { authorized: true, ...(isPending(current) && current.id !== input.challengeId ? { next: current } : {}) };
  if (quote.status !== 'PENDING_AUTHORIZATION' || !isPending(current) || current.id !== input.challengeId || !quote.customerId)
    return refused(new DomainError('CONFLICT', 'The quote has no pending challenge to authorize'));
  const verdict = await verifyScaProof(
    em,
    {
      platformId: quote.platformId,
      customerId: quote.customerId,
      factor: current.factor,
      proof: input.proof,
      challengeId: current.id,
      purpose: 'QUOTE',
      binding: bindingOf(quote, current.purpose),
      environment: quote.environment,
      masterKey: deps.masterKey,
    },
    (tx) => advance(tx, quote.id, current.id, deps),
  );
  if (verdict.valid) return { authorized: true, ...(verdict.result ? { next: verdict.result } : {}) };
  const burned = verdict.failure === 'ATTEMPTS_EXCEEDED' || (verdict.failure !== 'LOCKED' && verdict.attemptsLeft === 0);
  return refused(scaProofError(verdict), burned);
}

/** An authorized challenge moves its quote on (quote and transaction locked); returns the next challenge, if the quote needs one. */
async function advance(tx: EntityManager, quoteId: string, challengeId: string, deps: ChallengeDeps): Promise<QuoteChallenge | undefined> {
  const quote = await tx.findOneOrFail(Quote, { id: quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const current = quote.scaChallenge;
  if (quote.status !== 'PENDING_AUTHORIZATION' || !isPending(current) || current.id !== challengeId)
    throw new DomainError('CONFLICT', 'The quote has no pending challenge to authorize');
  const next = nextStep(current.purposes, current.step);
  const authorized = [...(current.authorized ?? []), current.id];
  if (next !== null) return issueStep(tx, quote, current.kind, next, deps, authorized);
  const now = new Date();
  quote.scaChallenge = { ...current, authorizedAt: now.toISOString(), authorized };
  quote.updatedAt = now;
  if (current.kind === 'QUOTE_FUNDING') {
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    assertTransition(payment.status, 'PENDING');
    quote.status = 'PENDING';
    payment.status = 'PENDING';
    payment.updatedAt = now;
  }
  await tx.flush();
  return undefined;
}
