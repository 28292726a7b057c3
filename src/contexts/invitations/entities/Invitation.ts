import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { InvitationStatus } from '../domain/invitation-rules';

/** A UMA invitation of one platform's customer, found by its code. */
@Entity({ tableName: 'invitations' })
export class Invitation {
  @PrimaryKey({ type: 'string' }) code!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) inviterCustomerId!: string;
  @Property({ type: 'string' }) inviterUma!: string;
  @Property({ type: 'string', nullable: true }) inviteeUma?: string | null;
  @Property({ type: 'string', nullable: true }) firstName?: string | null;
  /** Minor units of `currency` (the inviter's); shown to the invitee, sent by the platform. */
  @Property({ type: 'bigint', nullable: true }) amountToSend?: bigint | null;
  @Property({ type: 'string', nullable: true }) currency?: string | null;
  @Property({ type: 'string' }) status!: InvitationStatus;
  @Property({ type: 'string' }) url!: string;
  @Property({ type: 'datetime', nullable: true }) expiresAt?: Date | null;
  @Property({ type: 'datetime', nullable: true }) claimedAt?: Date | null;
  @Property({ type: 'datetime', nullable: true }) cancelledAt?: Date | null;
  /** The workflow step that claimed or cancelled it, so a retried activity recognises its own work. */
  @Property({ type: 'string', nullable: true }) settledBy?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
