import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A hosted KYC/KYB link handed out for a customer; single-use, stored by the hash of its token. */
@Entity({ tableName: 'kyc_links' })
export class KycLink {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) tokenHash!: string;
  @Property({ type: 'string', nullable: true }) redirectUri?: string | null;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  /** When the hosted flow consumed the link; a consumed link cannot be opened again. */
  @Property({ type: 'datetime', nullable: true }) usedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
}
