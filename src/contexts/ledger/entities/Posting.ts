import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A signed amount on one ledger account: positive raises its balance, negative lowers it. */
@Entity({ tableName: 'postings' })
export class Posting {
  @PrimaryKey({ type: 'bigint', autoincrement: true }) id?: bigint;
  @Property({ type: 'string' }) entryId!: string;
  @Property({ type: 'string' }) accountId!: string;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'datetime' }) createdAt!: Date;
}
