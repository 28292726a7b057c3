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

/** A hold: the payment waits in its workflow until the gate's hold is approved, rejected, or expires. */
export interface GateHold {
  /** What the quote and its transaction show while held. */
  status: 'PENDING_AUTHORIZATION';
  /** How long the hold waits for a decision before the payment expires. */
  expiresInSeconds: number;
  /** Why, for people reading the workflow's history. */
  reason: string;
}

export type GateVerdict = { pass: true } | { hold: GateHold };

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
}
