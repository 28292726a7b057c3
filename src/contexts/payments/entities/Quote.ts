import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { QuoteChallenge } from '../domain/quote-challenge';

export type QuoteStatus = 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

/** A locked offer to move money; its id is also the id of the workflow that waits for it. */
@Entity({ tableName: 'quotes' })
export class Quote {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string', nullable: true }) customerId?: string | null;
  @Property({ type: 'string' }) status!: QuoteStatus;
  @Property({ type: 'json' }) source!: Record<string, unknown>;
  @Property({ type: 'json' }) destination!: Record<string, unknown>;
  @Property({ type: 'string' }) lockedSide!: 'SENDING' | 'RECEIVING';
  @Property({ type: 'bigint' }) lockedAmount!: bigint;
  @Property({ type: 'string' }) sendingCurrency!: string;
  @Property({ type: 'string' }) receivingCurrency!: string;
  @Property({ type: 'bigint' }) totalSendingAmount!: bigint;
  @Property({ type: 'bigint' }) totalReceivingAmount!: bigint;
  @Property({ type: 'bigint' }) feesIncluded!: bigint;
  @Property({ type: 'bigint' }) platformFeesIncluded!: bigint;
  @Property({ type: 'double' }) exchangeRate!: number;
  @Property({ type: 'json' }) rateDetails!: Record<string, unknown>;
  @Property({ type: 'string', nullable: true }) paymentRail?: string | null;
  /** Real-time funding in crypto: the chain the deposit is made on (its paymentInstructions are an address there). */
  @Property({ type: 'string', nullable: true }) description?: string | null;
  @Property({ type: 'string', nullable: true }) remittanceInformation?: string | null;
  @Property({ type: 'string', nullable: true }) purposeOfPayment?: string | null;
  /** The SCA factor asked for at creation (SMS_OTP or PASSKEY): the factor of the quote's challenges. */
  @Property({ type: 'string', nullable: true }) scaFactor?: string | null;
  /** The SCA challenge the quote carries while PENDING_AUTHORIZATION (as issued; no secret in it), null otherwise. */
  @Property({ type: 'json', nullable: true }) scaChallenge?: QuoteChallenge | null;
  @Property({ type: 'string' }) transactionId!: string;
  /** The agent that made the quote (through /agents/me), null for the platform's own quotes. */
  @Property({ type: 'string', nullable: true }) agentId?: string | null;
  /** The execution gate holding the quote's execution, null when none (a hold need not change the status). */
  @Property({ type: 'string', nullable: true }) heldBy?: string | null;
  /** EMBEDDED_WALLET sources: what the wallet's owner signs to pay this quote (fixed at creation: the signed bytes never change). */
  @Property({ type: 'text', nullable: true }) walletPayloadToSign?: string | null;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  @Property({ type: 'datetime', nullable: true }) executedAt?: Date | null;
  /** The key of the execute request that took it on (its Idempotency-Key, or one of its own): that request, and a retry of it, are answered as executed. */
  @Property({ type: 'string', nullable: true }) executionKey?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
