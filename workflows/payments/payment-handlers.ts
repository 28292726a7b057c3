import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { ERROR } from '../../src/domain/errors';
import { cancelPayoutUpdate, decideHoldUpdate, executePaymentUpdate, fundQuoteUpdate, holdDecidedSignal, TRANSACTION_NOT_CANCELLABLE } from './definitions';
import { approveHold, attemptExecution, type Hold, type PreExecution } from './pre-execution';
import { executeQuote, fundQuote } from './payment-activities';

// Every update and signal a payment answers, in one place: before it runs (execute, fund, a
// hold's decision; cancel is refused) and while it runs (cancel, until the rail answered).

/** Registers the handlers of a payment waiting for its execution; they change `p` and answer from it. */
export function handleRequestsBeforeExecution(p: PreExecution): void {
  const { quoteId, transactionId } = p.input;
  setHandler(executePaymentUpdate, (request) => {
    // Gates the request's own proof satisfies stay approved for every later run of the gates (a later gate's hold, its approval).
    const proven = request.approved ?? [];
    for (const gate of proven) if (!p.approved.includes(gate)) p.approved.push(gate);
    return attemptExecution(
      p,
      () => executeQuote({ quoteId, requestKey: request.requestKey, ...(proven.length > 0 ? { approved: [...p.approved] } : {}) }),
      request.requestKey,
    );
  });
  setHandler(fundQuoteUpdate, ({ amount }) => attemptExecution(p, () => fundQuote({ quoteId, amount })));
  setHandler(
    decideHoldUpdate,
    async ({ gate, decision, reason, failureReason, failed }) => {
      if (decision === 'APPROVE') return approveHold(p, gate);
      // An approval already asked for decides first: the rejection then finds the payment executed
      // (or, the approval refused, still held: the rejection ends it).
      if (p.approving > 0 || p.turn.busy) await condition(() => p.approving === 0 && !p.turn.busy);
      if (p.execution || p.rejection) throw decided(gate);
      // Only decisions that say more carry more: histories of plain rejections replay unchanged.
      p.rejection = { ...(failureReason ? { failureReason } : {}), ...(reason ? { reason } : {}), ...(failed ? { failed } : {}) };
      return { transactionId };
    },
    {
      validator: ({ gate }) => {
        // A rejection is final: no later approval executes the payment while it is being ended.
        if (p.rejection) throw decided(gate);
        assertHeldBy(p.hold, gate);
      },
    },
  );
  // The same decision from another workflow (an SCA challenge's outcome). Only a run that receives
  // it issues new commands, so histories recorded before it replay unchanged. An approval whose
  // execution is refused (the funds are gone) leaves the hold to its expiry; whoever waits for the
  // answer (POST /quotes/{id}/authorize) asks with decideHold and gets the refusal.
  setHandler(holdDecidedSignal, ({ gate, decision, failureReason }) => {
    if (decision === 'REJECT') {
      if (p.hold && p.hold.gate !== gate) return;
      p.rejection = { ...p.rejection, failureReason };
      return;
    }
    if (p.hold?.gate === gate && !p.rejection) void approveHold(p, gate).catch(() => undefined);
  });
  // Until the payment runs there is nothing to cancel: the quote is not executed yet.
  const refuseCancel = (_request: { reason?: string }): never => {
    throw notCancellable();
  };
  setHandler(cancelPayoutUpdate, async (request) => refuseCancel(request), { validator: refuseCancel });
}

/** A running payment's cancellation: asked for by the platform, possible until the rail answered. */
export interface Cancellation {
  cancellable: boolean;
  requested: boolean;
  /** The payment is failed and refunded: the cancel update is answered. */
  done: boolean;
}

/** Registers the cancel update of a running payment (replacing the refusal of the wait): answered once `c.done`. */
export function handleCancellation(c: Cancellation, transactionId: string): void {
  setHandler(
    cancelPayoutUpdate,
    async (_request) => {
      c.requested = true;
      await condition(() => c.done);
      return { transactionId };
    },
    {
      validator: (_request) => {
        if (!c.cancellable) throw notCancellable();
      },
    },
  );
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
