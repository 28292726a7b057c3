import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { LookupKind, PayerField } from '../domain/lookups';

/**
 * A receiver lookup (GET /receiver/…): who was looked up and what they take, kept until
 * `expiresAt` so that a quote naming its `lookupId` can be checked against it
 * (domain/lookups.ts assertLookupUsable).
 */
@Entity({ tableName: 'lookups' })
export class Lookup {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) kind!: LookupKind;
  /** The external account id, or the UMA address in lower case. */
  @Property({ type: 'string' }) target!: string;
  /** The currencies the receiver takes: the account's one, or the UMA customer's. */
  @Property({ type: 'json' }) receivingCurrencies!: string[];
  @Property({ type: 'json' }) requiredPayerDataFields!: PayerField[];
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) expiresAt!: Date;
}
