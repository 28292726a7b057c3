import type { OperationSource, OperationType, PayoutRail } from './operation-rules';

/**
 * What the service asks of a stablecoin provider (Brale). The sandbox answers from
 * domain/sandbox-provider.ts; a production client would call the provider's HTTP API behind the
 * same interface. A refusal is a ProviderRefusal; anything else thrown means the provider could
 * not be reached (the caller retries or answers 503).
 */
export interface ProviderCredentials {
  apiClientId: string;
  apiClientSecret: string;
}

export interface ProviderToken {
  name: string;
  symbol: string;
  decimals: number;
  baseCurrency: string;
  /** The token's identifier on its network, when the provider reports one; a registration must name the same. */
  networkTokenIdentifier?: string;
}

/** How the provider knows an external account: linked, still being linked, refused, or only linkable by the issuer in the provider's dashboard. */
export type AddressLinkStatus = 'LINKED' | 'PENDING' | 'REFUSED' | 'MANUAL_LINK_REQUIRED';

export interface AddressToLink {
  kind: 'BANK_ACCOUNT' | 'SPARK_WALLET';
  /** The account number or the wallet address. */
  identifier: string;
}

export interface ProviderOrder {
  /** The service's operation id, the provider's idempotency key. */
  operationId: string;
  type: OperationType;
  valueType: string;
  units: bigint;
  cents: bigint;
  source: OperationSource;
  destinationAddressId: string | null;
  rail?: PayoutRail;
}

export interface SubmittedOrder {
  reference: string;
  providerStatus: string;
  /** Where the issuer sends the money the order waits for (wire details, or a deposit address). */
  fundingInstructions?: Record<string, string>;
}

export class ProviderRefusal extends Error {
  constructor(
    readonly kind: 'AUTHENTICATION' | 'NOT_FOUND' | 'REFUSED',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

export interface StablecoinProviderClient {
  /** The provider accounts the credentials reach (AUTHENTICATION when they are not accepted). */
  accounts(credentials: ProviderCredentials): Promise<string[]>;
  /** A token the provider created for the account, by its value type (NOT_FOUND when it has none). */
  token(credentials: ProviderCredentials, providerAccountId: string, valueType: string): Promise<ProviderToken>;
  /** The provider's review of a token's issuance, then its provisioning. */
  reviewIssuance(credentials: ProviderCredentials, providerAccountId: string, valueType: string): Promise<'APPROVED' | 'REJECTED'>;
  provisionIssuance(credentials: ProviderCredentials, providerAccountId: string, valueType: string): Promise<'PROVISIONED' | 'FAILED'>;
  linkAddress(
    credentials: ProviderCredentials,
    providerAccountId: string,
    address: AddressToLink,
  ): Promise<{ status: AddressLinkStatus; addressId: string | null }>;
  /** The balances the account holds at the provider, as `TOKEN@NETWORK`. */
  balances(credentials: ProviderCredentials, providerAccountId: string): Promise<string[]>;
  submitOrder(credentials: ProviderCredentials, providerAccountId: string, order: ProviderOrder): Promise<SubmittedOrder>;
  /** How a submitted order ended once the provider finished it. */
  orderOutcome(credentials: ProviderCredentials, providerAccountId: string, order: ProviderOrder): Promise<{ providerStatus: string; completed: boolean }>;
}
