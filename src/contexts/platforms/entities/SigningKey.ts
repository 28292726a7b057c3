import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The webhook-signing P-256 key of one environment; the private half is stored encrypted. */
@Entity({ tableName: 'signing_keys' })
export class SigningKey {
  @PrimaryKey({ type: 'string' }) environment!: 'SANDBOX' | 'PRODUCTION';
  @Property({ type: 'text' }) publicKeyPem!: string;
  @Property({ type: 'text' }) privateKeyEncrypted!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
}
