import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { FeeConfig } from '../domain/fee-configs';

export type Region = 'US' | 'EU' | 'UK' | 'LATAM' | 'APAC' | 'AFRICA';

export interface PlatformCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: { name: string; mandatory: boolean }[];
  enabledTransactionTypes: ('INCOMING' | 'OUTGOING')[];
}

/** The tenant that calls the API: every other row belongs to exactly one platform. */
@Entity({ tableName: 'platforms' })
export class Platform {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) name!: string;
  @Property({ type: 'string' }) region!: Region;
  @Property({ type: 'boolean' }) isRegulatedFinancialInstitution!: boolean;
  @Property({ type: 'boolean' }) embeddedWalletsSupported!: boolean;
  @Property({ type: 'boolean' }) counterpartyInformationRequired!: boolean;
  @Property({ type: 'string', nullable: true }) webhookEndpoint?: string | null;
  @Property({ type: 'string', nullable: true }) umaDomain?: string | null;
  @Property({ type: 'json' }) supportedCurrencies!: PlatformCurrencyConfig[];
  @Property({ type: 'json', nullable: true }) embeddedWalletConfig?: Record<string, unknown> | null;
  /** Active fee configs only, one per (feeType, sourceCurrency). */
  @Property({ type: 'json' }) feeConfigs!: FeeConfig[];
  /** Cards: live (not CLOSED) cards the platform may hold at once; null = no cap. Set by the operator. */
  @Property({ type: 'integer', nullable: true }) maxLiveCards?: number | null;
  /** Cards: at most one live card per cardholder. Set by the operator. */
  @Property({ type: 'boolean' }) oneCardPerCardholder!: boolean;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}
