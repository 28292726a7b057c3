import type { SearchAttributePair } from '@temporalio/common';
import type { Execution, ExecutionStep, HeldExecution } from '../../src/contexts/payments/services/quote-execution';
import { CustomerIdKey, QuoteIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { oneStepAtATime } from '../one-step-at-a-time';
import { asApplicationFailure } from '../update-failures';
import type { PaymentExecution, PaymentInput } from './definitions';
import { executeQuote } from './payment-activities';

export type Hold = HeldExecution['held'];

/** Why a held (or authorization-pending) payment is being ended by a rejection. */
export interface Rejection {
  /** Set by a REJECT that says why the payment fails (an SCA challenge's: SCA_NOT_COMPLETED). */
  failureReason?: string;
  /** The decider's words and whether the rejection ends an approval whose execution was refused, handed to the holding gate. */
  reason?: string;
  failed?: boolean;
}

/**
 * A payment before it runs: what its handlers (payment-handlers.ts) write and the wait
 * (await-execution.ts) reads. Everything that changes is a field here.
 */
export interface PreExecution {
  readonly input: PaymentInput;
  /** The search attributes the payment's webhook deliveries carry. */
  readonly attributes: SearchAttributePair[];
  /** Execution attempts, approvals and the wait's own steps run one at a time. */
  readonly turn: ReturnType<typeof oneStepAtATime>;
  /** Set once an attempt executed the quote (or found it executed): the payment then runs. */
  execution: Execution | null;
  /** The gate's hold the payment waits on; null once executed or ended. */
  hold: Hold | null;
  /** The key of the request a gate held: the execution that follows the approval is that request's. */
  heldRequestKey: string | undefined;
  /** Gates approved so far (by a decision, or by the request's own proof): they pass on every later attempt. */
  readonly approved: string[];
  /** Approvals asked for and not yet answered (one may wait for its turn before it executes). */
  approving: number;
  /** Set by a REJECT; a rejection is final, except for a lapsed authorization the quote no longer waited for. */
  rejection: Rejection | null;
  /** The quote's lifetime timer fired. */
  lifetimeOver: boolean;
}

export function preExecution(input: PaymentInput): PreExecution {
  return {
    input,
    attributes: [
      { key: TransactionIdKey, value: input.transactionId },
      { key: QuoteIdKey, value: input.quoteId },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ],
    turn: oneStepAtATime(),
    execution: null,
    hold: null,
    heldRequestKey: undefined,
    approved: [],
    approving: 0,
    rejection: null,
    lifetimeOver: false,
  };
}

/**
 * Runs one execution attempt, unless this run has the execution already: then the request is
 * answered by the key the execution recorded (its own request, or a repeat). By key, not by
 * arrival: a workflow task that is retried may deliver its updates in another order.
 */
export function attemptExecution(p: PreExecution, attempt: () => Promise<ExecutionStep>, requestKey?: string): Promise<PaymentExecution> {
  const { transactionId } = p.input;
  return p.turn.run(async () => {
    if (p.execution) return { transactionId, repeat: requestKey === undefined || p.execution.executedBy !== requestKey };
    const step = await attempt().catch((err: unknown) => {
      throw asApplicationFailure(err);
    });
    if ('held' in step) {
      p.hold = step.held;
      p.heldRequestKey = requestKey;
      return { transactionId, held: { gate: p.hold.gate, status: p.hold.status, expiresAt: p.hold.expiresAt } };
    }
    p.execution = step;
    p.hold = null;
    return { transactionId: step.transactionId, repeat: step.repeat };
  });
}

/** Approves the gate holding the payment: the held request's execution runs again with every gate approved so far passing. */
export function approveHold(p: PreExecution, gate: string): Promise<PaymentExecution> {
  p.approved.push(gate);
  p.approving += 1;
  return attemptExecution(
    p,
    () => executeQuote({ quoteId: p.input.quoteId, approved: [...p.approved], ...(p.heldRequestKey ? { requestKey: p.heldRequestKey } : {}) }),
    p.heldRequestKey,
  ).finally(() => {
    p.approving -= 1;
  });
}

/** Takes the execution the database recorded, as a repeat of its own request would get it: its plan and its (recorded) events. */
export function adoptExecution(p: PreExecution, lost: { requestKey?: string }): Promise<PaymentExecution> {
  return attemptExecution(p, () => executeQuote({ quoteId: p.input.quoteId, ...(lost.requestKey ? { requestKey: lost.requestKey } : {}) }), lost.requestKey);
}
