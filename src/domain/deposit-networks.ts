import type { FieldError } from './errors';

/**
 * The crypto networks money can arrive on, and which currencies each carries here: the
 * reference's `cryptoNetwork` values for real-time funding, with the assets of the reference's
 * deposit instruction variants (Solana USDC/USDT, Base and Polygon USDC, Ethereum USDC/USDT, Tron
 * and Plasma USDT, Spark BTC and Spark tokens, Bitcoin on-chain). `accountType` is the deposit
 * instruction variant (`PaymentInstructions.accountOrWalletInfo.accountType`) and `addressFormat`
 * the chain's address encoding. Lightning is a value of the reference but carries nothing here:
 * a Lightning deposit needs an invoice per payment, which the service does not issue yet.
 */
export const DEPOSIT_NETWORKS = {
  SOLANA: { accountType: 'SOLANA_WALLET', addressFormat: 'solana', currencies: ['USDC', 'USDT'] },
  ETHEREUM: { accountType: 'ETHEREUM_WALLET', addressFormat: 'evm', currencies: ['USDC', 'USDT'] },
  BASE: { accountType: 'BASE_WALLET', addressFormat: 'evm', currencies: ['USDC'] },
  POLYGON: { accountType: 'POLYGON_WALLET', addressFormat: 'evm', currencies: ['USDC'] },
  TRON: { accountType: 'TRON_WALLET', addressFormat: 'tron', currencies: ['USDT'] },
  PLASMA: { accountType: 'PLASMA_WALLET', addressFormat: 'evm', currencies: ['USDT'] },
  SPARK: { accountType: 'SPARK_WALLET', addressFormat: 'spark', currencies: ['BTC', 'USDB'] },
  LIGHTNING: { accountType: 'LIGHTNING', addressFormat: 'invoice', currencies: [] },
  BITCOIN: { accountType: 'BITCOIN_L1', addressFormat: 'bitcoin', currencies: ['BTC'] },
} as const satisfies Readonly<Record<string, { accountType: string; addressFormat: string; currencies: readonly string[] }>>;

export type DepositNetwork = keyof typeof DEPOSIT_NETWORKS;
export type DepositAddressFormat = (typeof DEPOSIT_NETWORKS)[DepositNetwork]['addressFormat'];

/** Every `cryptoNetwork` value, in the reference's order. */
export const DEPOSIT_NETWORK_NAMES = Object.keys(DEPOSIT_NETWORKS) as DepositNetwork[];

export function isDepositNetwork(value: string): value is DepositNetwork {
  return Object.prototype.hasOwnProperty.call(DEPOSIT_NETWORKS, value);
}

/** The networks that carry `currency` here (empty for fiat). */
export function depositNetworksFor(currency: string): DepositNetwork[] {
  return DEPOSIT_NETWORK_NAMES.filter((n) => (DEPOSIT_NETWORKS[n].currencies as readonly string[]).includes(currency));
}

/**
 * Stablecoins live on several chains: a deposit must name one (the reference requires
 * `cryptoNetwork` for them), because tokens sent on another chain than the address's are lost.
 */
export const NETWORK_REQUIRED_CURRENCIES: readonly string[] = ['USDC', 'USDT', 'USDB'];

/**
 * Where a currency's deposits go when no network is named: BTC (and the accounts of the other
 * crypto currencies, which hold one address) on their usual chain.
 */
export const DEFAULT_DEPOSIT_NETWORK: Readonly<Record<string, DepositNetwork>> = { BTC: 'SPARK', USDB: 'SPARK', USDC: 'BASE', USDT: 'ETHEREUM' };

/**
 * A deposit's currency and network judged together, as field errors on `field`: a network for a
 * fiat currency, none for a stablecoin, an unknown one, or one that does not carry the currency.
 */
export function depositNetworkProblems(currency: string, network: string | undefined, field: string): FieldError[] {
  const carriers = depositNetworksFor(currency);
  if (network === undefined) {
    if (!NETWORK_REQUIRED_CURRENCIES.includes(currency)) return [];
    return [
      { field, constraint: 'required', message: `${currency} is deposited on one of ${carriers.join(', ')}: name the network`, hint: { enum: carriers } },
    ];
  }
  if (!isDepositNetwork(network)) {
    return [{ field, constraint: 'enum', message: `must be one of ${DEPOSIT_NETWORK_NAMES.join(', ')}`, hint: { enum: [...DEPOSIT_NETWORK_NAMES] } }];
  }
  // Every crypto currency has a carrier: none means fiat (or a currency the caller refuses anyway).
  if (carriers.length === 0) {
    return [{ field, constraint: 'cryptoOnly', message: `${currency} is not deposited on a crypto network: leave cryptoNetwork out` }];
  }
  if (!carriers.includes(network)) {
    return [
      {
        field,
        constraint: 'supportedForCurrency',
        message: `${currency} is not deposited on ${network} here; it is on ${carriers.join(', ')}`,
        hint: { enum: carriers },
      },
    ];
  }
  return [];
}
