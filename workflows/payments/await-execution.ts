import { condition, patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { Execution } from '../../src/contexts/payments/services/quote-execution';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import { endHeldExecution, expireQuote } from './payment-activities';
import { adoptExecution, type Hold, type PreExecution, type Rejection } from './pre-execution';

/** Holds record their webhook (OUTGOING_PAYMENT.PENDING_AUTHORIZATION), which the waiting run delivers; runs before it delivered none. */
const HELD_ANNOUNCED = 'held-announced';
/** At its expiry, a quote found executed by a lost workflow task is carried on; runs before it ended such payments as expired. */
const ADOPTS_LOST_EXECUTION = 'adopts-lost-execution';
/** At its hold's end, a quote found executed by an approval's lost workflow task is carried on; runs before it ended the hold and left the payment PROCESSING. */
const ADOPTS_LOST_APPROVAL = 'adopts-lost-approval';

/** How the wait ended: the quote executed (the payment runs), or the payment ended before it ran. */
export type Waited = { execution: Execution } | { ended: 'REJECTED' | 'EXPIRED' };

/**
 * The payment before it runs. The handlers (payment-handlers.ts) execute the quote, fund it or
 * decide a hold; this waits for what they did, or for the quote's lifetime: executed, the payment
 * runs; held by a gate, it waits for the hold's decision or expiry; rejected (an SCA challenge
 * lapsed) or expired, it ends.
 */
export async function awaitExecution(p: PreExecution): Promise<Waited> {
  for (;;) {
    await condition(() => !p.turn.busy && (p.execution !== null || p.hold !== null || p.lifetimeOver || p.rejection?.failureReason !== undefined));
    if (p.execution) return { execution: p.execution };
    // A quote waiting for its authorization without an execution (real-time funding), whose challenge lapsed.
    if (!p.hold && p.rejection?.failureReason !== undefined) {
      if ((await endHeld(p, 'REJECTED')).ended) return { ended: 'REJECTED' };
      p.rejection = null;
      continue;
    }
    if (p.hold) {
      const waited = await awaitHoldDecision(p, p.hold);
      if (waited === 'HELD_AGAIN') continue;
      return waited;
    }
    return expire(p);
  }
}

/** Waits for the decision on `waiting` (or its expiry): executed, held again by a later gate, or ended. */
async function awaitHoldDecision(p: PreExecution, waiting: Hold): Promise<Waited | 'HELD_AGAIN'> {
  const decided = condition(() => p.rejection !== null || p.hold !== waiting || p.execution !== null, waiting.expiresInSeconds * 1000);
  // The hold's webhook, as an ordinary activity: scheduled with the task that answers the execution, it never delays that answer.
  if (waiting.events?.length && patched(HELD_ANNOUNCED)) await deliverEvents(p.input.platformId, waiting.events, p.attributes);
  await decided;
  await condition(() => !p.turn.busy);
  if (p.execution) return { execution: p.execution };
  if (p.hold !== waiting) return 'HELD_AGAIN';
  const { executedAlready } = await endHeld(p, p.rejection ? 'REJECTED' : 'EXPIRED');
  // The approval executed the quote in a workflow task the server lost, with the approval's update: the payment runs.
  if (executedAlready && patched(ADOPTS_LOST_APPROVAL)) {
    await adoptExecution(p, executedAlready);
    if (p.execution) return { execution: p.execution };
  }
  return { ended: p.rejection ? 'REJECTED' : 'EXPIRED' };
}

/** The quote's lifetime is over with no execution and no hold: it expires, unless the database has its execution already. */
async function expire(p: PreExecution): Promise<Waited> {
  const lost = await p.turn.run(async () => {
    const expired = await expireQuote({ quoteId: p.input.quoteId });
    // Executed by a workflow task this history never received (QuoteExpiry): the payment is carried on, not expired.
    if (expired.executedAlready && patched(ADOPTS_LOST_EXECUTION)) return expired.executedAlready;
    if (expired.events.length > 0) upsertSearchAttributes([{ key: BusinessStatusKey, value: 'EXPIRED' }]);
    await deliverEvents(p.input.platformId, expired.events, p.attributes, { local: true });
    return undefined;
  });
  if (lost) {
    await adoptExecution(p, lost);
    if (p.execution) return { execution: p.execution };
  }
  return { ended: 'EXPIRED' };
}

/**
 * Ends a held (or authorization-pending) payment. `ended` is false when the quote was not waiting
 * for an authorization any more; `executedAlready` is the execution the database holds and this
 * history lacks, as the end found it (see ADOPTS_LOST_APPROVAL).
 */
async function endHeld(p: PreExecution, outcome: 'REJECTED' | 'EXPIRED'): Promise<{ ended: boolean; executedAlready?: { requestKey?: string } }> {
  return p.turn.run(async () => {
    const { failureReason, reason, failed }: Rejection = p.rejection ?? {};
    const step = await endHeldExecution({
      quoteId: p.input.quoteId,
      outcome,
      ...(failureReason ? { failureReason } : {}),
      ...(p.hold ? { gate: p.hold.gate } : {}),
      ...(reason ? { reason } : {}),
      ...(failed ? { failed } : {}),
    });
    const executedAlready = step.executedAlready ? { executedAlready: step.executedAlready } : {};
    if (step.ended === false) return { ended: false, ...executedAlready };
    p.hold = null;
    upsertSearchAttributes([{ key: BusinessStatusKey, value: outcome === 'REJECTED' ? 'FAILED' : 'EXPIRED' }]);
    await deliverEvents(p.input.platformId, step.events, p.attributes, { local: true });
    return { ended: true, ...executedAlready };
  });
}
