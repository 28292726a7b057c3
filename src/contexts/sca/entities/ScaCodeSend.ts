import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One SMS code sent to a customer on its own request (a login start, a resend): what the send window counts. */
@Entity({ tableName: 'sca_code_sends' })
export class ScaCodeSend {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'datetime' }) sentAt!: Date;
}
