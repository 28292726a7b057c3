import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type WebhookDeliveryState = 'PENDING' | 'DELIVERED' | 'FAILED';

/** An event owed to a platform's webhook endpoint; delivered by its own workflow. */
@Entity({ tableName: 'webhook_events' })
export class WebhookEvent {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: 'SANDBOX' | 'PRODUCTION';
  @Property({ type: 'string' }) type!: string;
  /** The exact envelope bytes sent on every attempt: `{id, type, timestamp, data}`. */
  @Property({ type: 'text' }) payload!: string;
  @Property({ type: 'string' }) state!: WebhookDeliveryState;
  @Property({ type: 'integer' }) attempts!: number;
  @Property({ type: 'integer', nullable: true }) lastResponseStatus?: number | null;
  @Property({ type: 'datetime', nullable: true }) lastAttemptAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  /** When an attempt of it was first held back by its endpoint's breaker (no attempt made): its delivery is under way, not stranded. */
  @Property({ type: 'datetime', nullable: true }) heldBackAt?: Date | null;
}
