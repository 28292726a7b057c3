import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One HTTP attempt of a webhook event (or one held back by nothing: only attempts that posted are
 * kept), written in the same flush that counts it on the event.
 */
@Entity({ tableName: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttempt {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) eventId!: string;
  @Property({ type: 'datetime' }) attemptedAt!: Date;
  @Property({ type: 'integer', nullable: true }) responseStatus?: number | null;
  @Property({ type: 'integer' }) durationMs!: number;
  /** Why no HTTP answer, or why the answer was refused (never the answer's body). */
  @Property({ type: 'text', nullable: true }) error?: string | null;
  /** The attempt's DeliveryOutcome kind: DELIVERED, DUPLICATE, RETRYABLE, UNREACHABLE, NO_ENDPOINT, … */
  @Property({ type: 'string' }) outcome!: string;
}
