import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { CardState, CardStateReason } from '../domain/card-state';

/** A card issued to a customer (the cardholder). Its id is also its lifecycle workflow's id. */
@Entity({ tableName: 'cards' })
export class Card {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) cardholderId!: string;
  @Property({ type: 'string' }) platformCardId!: string;
  @Property({ type: 'string' }) state!: CardState;
  @Property({ type: 'string', nullable: true }) stateReason?: CardStateReason | null;
  @Property({ type: 'string', nullable: true }) brand?: 'VISA' | 'MASTERCARD' | null;
  @Property({ type: 'string' }) form!: 'VIRTUAL';
  @Property({ type: 'string', nullable: true }) last4?: string | null;
  @Property({ type: 'integer', nullable: true }) expMonth?: number | null;
  @Property({ type: 'integer', nullable: true }) expYear?: number | null;
  /** Internal account ids, in priority order (the first one funds authorizations). */
  @Property({ type: 'json' }) fundingSources!: string[];
  @Property({ type: 'bigint', nullable: true }) maxSpendPerTransaction?: bigint | null;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'string', nullable: true }) processorRef?: string | null;
  @Property({ type: 'string', nullable: true }) issuerRef?: string | null;
  /** `{pan, cvv}` sealed with the master key; never read outside the reveal path. */
  @Property({ type: 'string', nullable: true, lazy: true }) sealedSecrets?: string | null;
  @Property({ type: 'string', nullable: true }) panHash?: string | null;
  /** The one reveal link that may still be used (its id, signed into the link); spent on use, voided by a state change. */
  @Property({ type: 'string', nullable: true }) revealLinkId?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
