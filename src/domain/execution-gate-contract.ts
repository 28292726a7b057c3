import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What a payment's execution is about, as plain data, so that a gate depends on no other context's
 * entities. A gate reads whatever else it needs through the entity manager it is given: it runs
 * inside the database transaction that executes the quote, so what it reads (and locks) holds
 * until the funds are held.
 */
export interface ExecutionSubject {
  quoteId: string;
  transactionId: string;
  platformId: string;
  platformRegion: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  customerId: string | null;
  /** The agent that made the quote (its execution is that agent's action), absent for the platform's own. */
  agentId?: string;
  /** When the quote's locked price lapses. */
  quoteExpiresAt: Date;
  /** True when the execution read the customer's row under lock already (the policy may read it from memory). */
  customerRowLocked?: boolean;
  /** EXECUTE: POST /quotes/{id}/execute (or an immediate execution); FUNDS_ARRIVED: a real-time-funded quote's money came in. */
  trigger: 'EXECUTE' | 'FUNDS_ARRIVED';
  /** The internal account the funds are held on; absent when the money comes from outside. */
  payerAccountId?: string;
  /** The external account the service pulls the funds from, for a pull-funded quote. */
  pullAccountId?: string;
  /** The external account paid out to, when the destination is one. */
  destinationAccountId?: string;
  /** The destination is a beneficiary the customer trusts (SCA: payments to it skip the per-transaction challenge). */
  destinationTrusted?: boolean;
  /** The payee the money goes to (an account id or a UMA address): what an SCA challenge is linked to. */
  payee: string;
  /** The SCA factor the quote asked for (SMS_OTP or PASSKEY), if any. */
  scaFactor?: string;
  sendingCurrency: string;
  totalSendingAmount: bigint;
  /** The amount's value in euro cents (thresholds of EU rules are in euros). */
  amountEurCents?: bigint;
  description: string | null;
}

/** Webhook events a gate recorded in the execution's database transaction; the payment's workflow delivers them. */
export interface GateEvent {
  eventId: string;
  type: string;
}

/** A hold: the payment waits in its workflow until the gate's hold is approved, rejected, or expires. */
export interface GateHold {
  /**
   * What the quote and its transaction show while held: PENDING_AUTHORIZATION while the customer
   * proves it is theirs (SCA, a wallet's signature); PENDING while someone else decides (the
   * platform approving an agent's action): the quote stays PENDING, and the hold is named on it.
   */
  status: 'PENDING_AUTHORIZATION' | 'PENDING';
  /** How long the hold waits for a decision before the payment expires. */
  expiresInSeconds: number;
  /** Why, for people reading the workflow's history. */
  reason: string;
  /** The gate's own events of the hold (an agent action's AGENT_ACTION.PENDING_APPROVAL). */
  events?: GateEvent[];
}

export type GateVerdict = { pass: true; events?: GateEvent[] } | { hold: GateHold };

export const PASS: GateVerdict = { pass: true };

/**
 * One check a quote's execution must pass. It passes, refuses (throws a DomainError with its §7
 * code: the execution changes nothing), or holds. A held payment resumes when the hold is
 * approved: the execution then runs every gate again, this one with `approved` set, so a gate
 * decides once what an approval means (a signature checked, a platform's yes).
 */
export interface ExecutionGate {
  /** Stable: holds are approved or rejected by this name, and workflow histories record it. */
  readonly name: string;
  check(em: EntityManager, subject: ExecutionSubject, context: { approved: boolean }): Promise<GateVerdict>;
  /**
   * A held payment ended without moving money, in the database transaction that ends it: REJECTED
   * (the hold's decision was no, with the decider's reason), FAILED (approved, but the execution
   * was then refused: `reason` says why) or EXPIRED (nobody decided in time). Every gate hears it,
   * `heldBy` naming the gate that held it: the holder, or a gate that passed the payment before a
   * later gate held it (an agent's approved action fails when the customer's proof does). The gate
   * records what it keeps of the ending and returns its webhook events for the workflow to deliver.
   */
  holdEnded?(em: EntityManager, ended: HoldEnding): Promise<GateEvent[]>;
}

export interface HoldEnding {
  /** The gate whose hold ended (the quote's held_by). */
  heldBy: string;
  quoteId: string;
  transactionId: string;
  outcome: 'REJECTED' | 'FAILED' | 'EXPIRED';
  reason?: string;
}
