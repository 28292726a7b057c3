import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  patched,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/payments';
import type { Execution, ExecutionStep, HeldExecution } from '../../src/contexts/payments/services/quote-execution';
import { ERROR } from '../../src/domain/errors';
import { BusinessStatusKey, CustomerIdKey, QuoteIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import {
  cancelPayoutUpdate,
  decideHoldUpdate,
  executePaymentUpdate,
  fundQuoteUpdate,
  holdDecidedSignal,
  TRANSACTION_NOT_CANCELLABLE,
  type PaymentExecution,
  type PaymentInput,
} from './definitions';
import { oneStepAtATime } from '../one-step-at-a-time';
import { asApplicationFailure } from '../update-failures';
import { runPayment } from './payment-steps';

// Short database steps: local activities, no task round trip through the server. Refusals (every
// DomainError: an expired quote, insufficient funds, a gate's code) reach the workflow as
// non-retryable failures already (activities/failures.ts), so no list of them is kept here.
const { executeQuote, fundQuote, expireQuote, endHeldExecution } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

type Hold = HeldExecution['held'];

/** Holds record their webhook (OUTGOING_PAYMENT.PENDING_AUTHORIZATION), which the waiting run delivers; runs before it delivered none. */
const HELD_ANNOUNCED = 'held-announced';
/** At its expiry, a quote found executed by a lost workflow task is carried on; runs before it ended such payments as expired. */
const ADOPTS_LOST_EXECUTION = 'adopts-lost-execution';
/** At its hold's end, a quote found executed by an approval's lost workflow task is carried on; runs before it ended the hold and left the payment PROCESSING. */
const ADOPTS_LOST_APPROVAL = 'adopts-lost-approval';

/**
 * One payment, from its quote to its end, in one workflow (workflow id = transaction id; the quote
 * id is a search attribute). It waits for the quote's execution (an update answered once the funds
 * are held) or the arrival of its funds, or expires the quote on a durable timer. An execution an
 * execution gate holds waits here for the hold's decision (approve: executed again, the gate
 * passing; reject: FAILED) or its expiry (EXPIRED). Then the payment runs: the rail's answer on a
 * timer, settlement or refund, webhooks from a local activity. A payout costs 3 workflow tasks
 * and no activity task.
 */
export async function payment(input: PaymentInput): Promise<string> {
  const attributes = [
    { key: TransactionIdKey, value: input.transactionId },
    { key: QuoteIdKey, value: input.quoteId },
    ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
  ];
  let execution: Execution | null = null;
  let hold: Hold | null = null;
  /** The key of the request a gate held: the execution that follows the approval is that request's. */
  let heldRequestKey: string | undefined;
  const approved: string[] = [];
  let rejected = false;
  /** Set by a REJECT signalled by another workflow: why the payment fails (an SCA challenge: SCA_NOT_COMPLETED). */
  let rejectedFor: string | undefined;
  /** What a REJECT decision said, handed to the gate that held the payment. */
  let rejection: { reason?: string; failed?: boolean } = {};
  let lifetimeOver = false;
  /** The execution the database holds and this history lacks, as a hold's end found it (see ADOPTS_LOST_APPROVAL). */
  let lostExecution: { requestKey?: string } | undefined;
  const turn = oneStepAtATime();

  /**
   * Runs one execution attempt, unless this run has the execution already: then the request is
   * answered by the key the execution recorded (its own request, or a repeat). By key, not by
   * arrival: a workflow task that is retried may deliver its updates in another order.
   */
  const execute = (attempt: () => Promise<ExecutionStep>, requestKey?: string): Promise<PaymentExecution> =>
    turn.run(async () => {
      if (execution) return { transactionId: input.transactionId, repeat: requestKey === undefined || execution.executedBy !== requestKey };
      const step = await attempt().catch((err: unknown) => {
        throw asApplicationFailure(err);
      });
      if ('held' in step) {
        hold = step.held;
        heldRequestKey = requestKey;
        return { transactionId: input.transactionId, held: { gate: hold.gate, status: hold.status, expiresAt: hold.expiresAt } };
      }
      execution = step;
      hold = null;
      return { transactionId: step.transactionId, repeat: step.repeat };
    });
  setHandler(executePaymentUpdate, (request) => {
    // Gates the request's own proof satisfies stay approved for every later run of the gates (a later gate's hold, its approval).
    const proven = request.approved ?? [];
    for (const gate of proven) if (!approved.includes(gate)) approved.push(gate);
    return execute(
      () => executeQuote({ quoteId: input.quoteId, requestKey: request.requestKey, ...(proven.length > 0 ? { approved: [...approved] } : {}) }),
      request.requestKey,
    );
  });
  setHandler(fundQuoteUpdate, ({ amount }) => execute(() => fundQuote({ quoteId: input.quoteId, amount })));
  /** Approvals asked for and not yet answered (one may wait for its turn before it executes). */
  let approving = 0;
  const approve = (gate: string) => {
    approved.push(gate);
    approving += 1;
    return execute(
      () => executeQuote({ quoteId: input.quoteId, approved: [...approved], ...(heldRequestKey ? { requestKey: heldRequestKey } : {}) }),
      heldRequestKey,
    ).finally(() => {
      approving -= 1;
    });
  };
  setHandler(
    decideHoldUpdate,
    async ({ gate, decision, reason, failureReason, failed }) => {
      if (decision === 'REJECT') {
        // An approval already asked for decides first: the rejection then finds the payment executed
        // (or, the approval refused, still held: the rejection ends it).
        if (approving > 0 || turn.busy) await condition(() => approving === 0 && !turn.busy);
        if (execution || rejected) throw decided(gate);
        rejected = true;
        // Only decisions that say more carry more: histories of plain rejections replay unchanged.
        if (failureReason) rejectedFor = failureReason;
        rejection = { ...(reason ? { reason } : {}), ...(failed ? { failed } : {}) };
        return { transactionId: input.transactionId };
      }
      return approve(gate);
    },
    {
      validator: ({ gate }) => {
        // A rejection is final: no later approval executes the payment while it is being ended.
        if (rejected) throw decided(gate);
        assertHeldBy(hold, gate);
      },
    },
  );
  // The same decision from another workflow (an SCA challenge's outcome). Only a run that receives
  // it issues new commands, so histories recorded before it replay unchanged. An approval whose
  // execution is refused (the funds are gone) leaves the hold to its expiry; whoever waits for the
  // answer (POST /quotes/{id}/authorize) asks with decideHold and gets the refusal.
  setHandler(holdDecidedSignal, ({ gate, decision, failureReason }) => {
    if (decision === 'REJECT') {
      if (hold && hold.gate !== gate) return;
      rejected = true;
      rejectedFor = failureReason;
      return;
    }
    if (hold?.gate === gate && !rejected) void approve(gate).catch(() => undefined);
  });
  // Until the payment runs there is nothing to cancel: the quote is not executed yet.
  const refuseCancel = (_request: { reason?: string }): never => {
    throw notCancellable();
  };
  setHandler(cancelPayoutUpdate, async (request) => refuseCancel(request), { validator: refuseCancel });

  // The quote's lifetime is not cancelled once executed: a timer left to fire costs no event.
  void sleep(input.lifetimeSeconds * 1000).then(() => (lifetimeOver = true));
  for (;;) {
    await condition(() => !turn.busy && (execution !== null || hold !== null || lifetimeOver || rejectedFor !== undefined));
    if (execution) break;
    // A quote waiting for its authorization without an execution (real-time funding), whose challenge lapsed.
    if (!hold && rejectedFor !== undefined) {
      if (await endHeld('REJECTED')) {
        await condition(allHandlersFinished);
        return 'REJECTED';
      }
      rejectedFor = undefined;
      rejected = false;
      continue;
    }
    if (hold) {
      const waiting: Hold = hold;
      const decided = condition(() => rejected || hold !== waiting || execution !== null, waiting.expiresInSeconds * 1000);
      // The hold's webhook, as an ordinary activity: scheduled with the task that answers the execution, it never delays that answer.
      if (waiting.events?.length && patched(HELD_ANNOUNCED)) await deliverEvents(input.platformId, waiting.events, attributes);
      await decided;
      await condition(() => !turn.busy);
      if (execution) break;
      if (hold !== waiting) continue; // held again, by a later gate
      await endHeld(rejected ? 'REJECTED' : 'EXPIRED');
      // The approval executed the quote in a workflow task the server lost, with the approval's update: the payment runs.
      if (lostExecution && patched(ADOPTS_LOST_APPROVAL)) {
        await adopt(lostExecution);
        if (execution) break;
      }
      await condition(allHandlersFinished);
      return rejected ? 'REJECTED' : 'EXPIRED';
    }
    const lost = await turn.run(async () => {
      const expired = await expireQuote({ quoteId: input.quoteId });
      // Executed by a workflow task this history never received (QuoteExpiry): the payment is carried on, not expired.
      if (expired.executedAlready && patched(ADOPTS_LOST_EXECUTION)) return expired.executedAlready;
      if (expired.events.length > 0) upsertSearchAttributes([{ key: BusinessStatusKey, value: 'EXPIRED' }]);
      await deliverEvents(input.platformId, expired.events, attributes, { local: true });
      return undefined;
    });
    if (lost) {
      await adopt(lost);
      if (execution) break;
    }
    await condition(allHandlersFinished);
    return 'EXPIRED';
  }

  const executed: Execution = execution;
  // A run started only to answer a later request (an earlier run carried the payment to its end).
  if (executed.ended) {
    await condition(allHandlersFinished);
    return 'ANSWERED';
  }
  const outcome = await runPayment({
    transactionId: input.transactionId,
    platformId: input.platformId,
    plan: executed.plan,
    ...(executed.pull ? { pull: executed.pull } : {}),
    attributes,
    unannounced: executed.events,
    localDelivery: true,
    showWaiting: true,
    answerFirst: true,
  });
  await condition(allHandlersFinished);
  return outcome;

  /** Takes the execution the database recorded, as a repeat of its own request would get it: its plan and its (recorded) events. */
  function adopt(lost: { requestKey?: string }): Promise<PaymentExecution> {
    return execute(() => executeQuote({ quoteId: input.quoteId, ...(lost.requestKey ? { requestKey: lost.requestKey } : {}) }), lost.requestKey);
  }

  /** Ends a held (or authorization-pending) payment; false when the quote was not waiting for an authorization any more. */
  async function endHeld(outcome: 'REJECTED' | 'EXPIRED'): Promise<boolean> {
    const ended = await turn.run(async () => {
      const step = await endHeldExecution({
        quoteId: input.quoteId,
        outcome,
        ...(rejectedFor ? { failureReason: rejectedFor } : {}),
        ...(hold ? { gate: hold.gate } : {}),
        ...rejection,
      });
      lostExecution = step.executedAlready;
      if (step.ended === false) return false;
      hold = null;
      upsertSearchAttributes([{ key: BusinessStatusKey, value: outcome === 'REJECTED' ? 'FAILED' : 'EXPIRED' }]);
      await deliverEvents(input.platformId, step.events, attributes, { local: true });
      return true;
    });
    return ended;
  }
}

/** The hold was decided already (rejected, or approved and executed): another decision changes nothing. */
function decided(gate: string): ApplicationFailure {
  return ApplicationFailure.create({ type: ERROR.CONFLICT, message: `The payment's hold by ${gate} is decided already`, nonRetryable: true });
}

function assertHeldBy(hold: Hold | null, gate: string): void {
  if (!hold || hold.gate !== gate) {
    throw ApplicationFailure.create({ type: ERROR.CONFLICT, message: `The payment is not held by ${gate}`, nonRetryable: true });
  }
}

function notCancellable(): ApplicationFailure {
  return ApplicationFailure.create({
    type: TRANSACTION_NOT_CANCELLABLE,
    message: 'The transfer has been processed and can no longer be cancelled',
    nonRetryable: true,
  });
}
