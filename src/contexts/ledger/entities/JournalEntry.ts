import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One money movement: a set of postings that sum to zero per currency. */
@Entity({ tableName: 'journal_entries' })
export class JournalEntry {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** Business reason, unique: posting the same movement twice is refused by the database. */
  @Property({ type: 'string' }) idempotencyKey!: string;
  @Property({ type: 'string', nullable: true }) transactionId?: string | null;
  @Property({ type: 'string' }) description!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
}
