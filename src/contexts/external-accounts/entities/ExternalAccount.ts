import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { BeneficiaryVerificationStatus } from '../domain/sandbox-scenarios';
import type { AccountInfo } from '../domain/account-identity';
import type { BankValidationStatus, ExternalAccountStatus, OwnershipChallengeState, OwnershipType } from '../domain/account-status';

/**
 * A bank account or wallet outside the service that a customer (or the platform itself, when
 * `customerId` is null) pays to or pulls from. Deleting only marks the row: payments that name
 * the account keep reading it, while the API no longer shows it and new quotes refuse it.
 */
@Entity({ tableName: 'external_accounts' })
export class ExternalAccount {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** The environment of the token that registered it: sandbox accounts get the sandbox rails. */
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string', nullable: true }) customerId?: string | null;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'string' }) accountType!: string;
  /** As validated, identifiers in the rail's form; returned as `accountInfo`. */
  @Property({ type: 'json' }) accountInfo!: AccountInfo;
  /** The rails the platform chose at registration (`accountInfo.paymentRails`); null: every rail the account reaches. */
  @Property({ type: 'json', nullable: true }) paymentRails?: string[] | null;
  /** See domain/account-identity duplicateKey; unique per owner among live accounts. */
  @Property({ type: 'string' }) duplicateKey!: string;
  @Property({ type: 'string' }) status!: ExternalAccountStatus;
  @Property({ type: 'string', nullable: true }) ownershipType?: OwnershipType | null;
  @Property({ type: 'string', nullable: true }) platformAccountId?: string | null;
  @Property({ type: 'boolean' }) defaultUmaDepositAccount!: boolean;
  @Property({ type: 'string', nullable: true }) beneficiaryVerificationStatus?: BeneficiaryVerificationStatus | null;
  @Property({ type: 'string', nullable: true }) beneficiaryVerifiedName?: string | null;
  /** US accounts: the micro-entry validation (null where the rail has none). */
  @Property({ type: 'string', nullable: true }) bankValidation?: BankValidationStatus | null;
  @Property({ type: 'datetime', nullable: true }) bankValidationDueAt?: Date | null;
  /** The ownership challenge in flight, if any (self-custody wallets). */
  @Property({ type: 'json', nullable: true }) ownershipChallenge?: OwnershipChallengeState | null;
  /** A beneficiary the customer trusts (SCA, confirmed with a proof): payments to it skip the per-transaction challenge, and it cannot be deleted. */
  @Property({ type: 'boolean' }) trusted: Opt<boolean> = false;
  @Property({ type: 'datetime', nullable: true }) deletedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
