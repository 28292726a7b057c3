import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ContactChannel } from '../domain/contact-verification';

/** The live one-time code of a customer's email or phone verification (one per channel). */
@Entity({ tableName: 'contact_verification_codes' })
export class ContactVerificationCode {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) channel!: ContactChannel;
  /** The email address or phone number the code was sent to; a code is valid for it only. */
  @Property({ type: 'string' }) destination!: string;
  /** `hashContactCode` of the code; the code itself is never stored. */
  @Property({ type: 'string' }) codeHash!: string;
  /** Wrong attempts so far; at MAX_CONTACT_CODE_ATTEMPTS the code is burned. */
  @Property({ type: 'integer' }) attempts!: number;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  /** Set when the code verified the contact; a used code is never accepted again. */
  @Property({ type: 'datetime', nullable: true }) consumedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
