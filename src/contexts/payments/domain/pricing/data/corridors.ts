/**
 * The service's price schedule per corridor (sending currency → receiving currency), versioned:
 * bump CORRIDOR_DATA_VERSION whenever a number changes. Amounts are bigint minor units of the
 * SENDING currency; rates of change are integer basis points (1 bps = 0.01%).
 *
 * A corridor's terms are built from three layers (corridors.ts):
 *  1. the sending currency's schedule: limits and a fixed fee per destination class;
 *  2. the destination class's variable fee and FX spread;
 *  3. overrides for single corridors (busy corridors priced tighter, stablecoins at par).
 */
export const CORRIDOR_DATA_VERSION = '2026-11-24.1';

/**
 * How a receiving currency is reached, which drives its cost: `SAME_CURRENCY` is any corridor
 * whose two sides are the same currency (no conversion, no spread).
 */
export type DestinationClass = 'SAME_CURRENCY' | 'MAJOR_FIAT' | 'EMERGING_FIAT' | 'MOBILE_MONEY_FIAT' | 'STABLECOIN' | 'BITCOIN';

export const DESTINATION_CLASS: Readonly<Record<string, Exclude<DestinationClass, 'SAME_CURRENCY'>>> = {
  USD: 'MAJOR_FIAT',
  EUR: 'MAJOR_FIAT',
  GBP: 'MAJOR_FIAT',
  CAD: 'MAJOR_FIAT',
  HKD: 'MAJOR_FIAT',
  SGD: 'MAJOR_FIAT',
  DKK: 'MAJOR_FIAT',
  MXN: 'EMERGING_FIAT',
  BRL: 'EMERGING_FIAT',
  INR: 'EMERGING_FIAT',
  NGN: 'EMERGING_FIAT',
  PHP: 'EMERGING_FIAT',
  ZAR: 'EMERGING_FIAT',
  COP: 'EMERGING_FIAT',
  IDR: 'EMERGING_FIAT',
  THB: 'EMERGING_FIAT',
  MYR: 'EMERGING_FIAT',
  VND: 'EMERGING_FIAT',
  AED: 'EMERGING_FIAT',
  BDT: 'EMERGING_FIAT',
  CNY: 'EMERGING_FIAT',
  EGP: 'EMERGING_FIAT',
  GTQ: 'EMERGING_FIAT',
  ILS: 'EMERGING_FIAT',
  JMD: 'EMERGING_FIAT',
  PKR: 'EMERGING_FIAT',
  TRY: 'EMERGING_FIAT',
  KES: 'MOBILE_MONEY_FIAT',
  XOF: 'MOBILE_MONEY_FIAT',
  XAF: 'MOBILE_MONEY_FIAT',
  GHS: 'MOBILE_MONEY_FIAT',
  BWP: 'MOBILE_MONEY_FIAT',
  HTG: 'MOBILE_MONEY_FIAT',
  MWK: 'MOBILE_MONEY_FIAT',
  RWF: 'MOBILE_MONEY_FIAT',
  TZS: 'MOBILE_MONEY_FIAT',
  UGX: 'MOBILE_MONEY_FIAT',
  ZMW: 'MOBILE_MONEY_FIAT',
  USDC: 'STABLECOIN',
  USDT: 'STABLECOIN',
  USDB: 'STABLECOIN',
  BTC: 'BITCOIN',
};

/** The service's variable fee (on totalSendingAmount) and FX spread (in the rate) per class. */
export const CLASS_PRICING: Readonly<Record<DestinationClass, { variableBps: number; spreadBps: number }>> = {
  SAME_CURRENCY: { variableBps: 0, spreadBps: 0 },
  MAJOR_FIAT: { variableBps: 25, spreadBps: 30 },
  EMERGING_FIAT: { variableBps: 50, spreadBps: 75 },
  MOBILE_MONEY_FIAT: { variableBps: 100, spreadBps: 150 },
  STABLECOIN: { variableBps: 10, spreadBps: 10 },
  BITCOIN: { variableBps: 20, spreadBps: 50 },
};

export interface SendingSchedule {
  /** Smallest totalSendingAmount accepted (AMOUNT_OUT_OF_RANGE below). Above every fixed fee. */
  minSendingMinor: bigint;
  /** Largest single transaction (TRANSACTION_SIZE_LIMIT_EXCEEDED above). */
  maxSendingMinor: bigint;
  /** Mobile-money wallets hold little: the largest single payout to one. */
  mobileMoneyMaxSendingMinor: bigint;
  /** The service's fixed fee per destination class. */
  fixedFeeMinor: Readonly<Record<DestinationClass, bigint>>;
}

/** Per sending currency (rates.ts SENDING_CURRENCIES), in that currency's minor units. */
export const SENDING_SCHEDULES: Readonly<Record<string, SendingSchedule>> = {
  // cents: 5.00 to 100,000.00 USD; 2,000.00 to a mobile-money wallet
  USD: {
    minSendingMinor: 500n,
    maxSendingMinor: 10_000_000n,
    mobileMoneyMaxSendingMinor: 200_000n,
    fixedFeeMinor: { SAME_CURRENCY: 25n, MAJOR_FIAT: 100n, EMERGING_FIAT: 150n, MOBILE_MONEY_FIAT: 200n, STABLECOIN: 50n, BITCOIN: 50n },
  },
  EUR: {
    minSendingMinor: 500n,
    maxSendingMinor: 9_000_000n,
    mobileMoneyMaxSendingMinor: 185_000n,
    fixedFeeMinor: { SAME_CURRENCY: 20n, MAJOR_FIAT: 90n, EMERGING_FIAT: 140n, MOBILE_MONEY_FIAT: 180n, STABLECOIN: 45n, BITCOIN: 45n },
  },
  // pence
  GBP: {
    minSendingMinor: 500n,
    maxSendingMinor: 8_000_000n,
    mobileMoneyMaxSendingMinor: 160_000n,
    fixedFeeMinor: { SAME_CURRENCY: 20n, MAJOR_FIAT: 80n, EMERGING_FIAT: 120n, MOBILE_MONEY_FIAT: 160n, STABLECOIN: 40n, BITCOIN: 40n },
  },
  // micro-dollars (6 decimals): 5 to 100,000 tokens; on-chain sends carry a small network cost
  USDC: {
    minSendingMinor: 5_000_000n,
    maxSendingMinor: 100_000_000_000n,
    mobileMoneyMaxSendingMinor: 2_000_000_000n,
    fixedFeeMinor: {
      SAME_CURRENCY: 100_000n,
      MAJOR_FIAT: 1_000_000n,
      EMERGING_FIAT: 1_500_000n,
      MOBILE_MONEY_FIAT: 2_000_000n,
      STABLECOIN: 100_000n,
      BITCOIN: 500_000n,
    },
  },
  USDT: {
    minSendingMinor: 5_000_000n,
    maxSendingMinor: 100_000_000_000n,
    mobileMoneyMaxSendingMinor: 2_000_000_000n,
    fixedFeeMinor: {
      SAME_CURRENCY: 100_000n,
      MAJOR_FIAT: 1_000_000n,
      EMERGING_FIAT: 1_500_000n,
      MOBILE_MONEY_FIAT: 2_000_000n,
      STABLECOIN: 100_000n,
      BITCOIN: 500_000n,
    },
  },
  USDB: {
    minSendingMinor: 5_000_000n,
    maxSendingMinor: 100_000_000_000n,
    mobileMoneyMaxSendingMinor: 2_000_000_000n,
    fixedFeeMinor: {
      SAME_CURRENCY: 100_000n,
      MAJOR_FIAT: 1_000_000n,
      EMERGING_FIAT: 1_500_000n,
      MOBILE_MONEY_FIAT: 2_000_000n,
      STABLECOIN: 100_000n,
      BITCOIN: 500_000n,
    },
  },
  // satoshis: 5,000 sats (about 4.76 USD) to 1.05 BTC; Lightning/Spark moves are nearly free
  BTC: {
    minSendingMinor: 5_000n,
    maxSendingMinor: 105_000_000n,
    mobileMoneyMaxSendingMinor: 2_100_000n,
    fixedFeeMinor: { SAME_CURRENCY: 10n, MAJOR_FIAT: 1_050n, EMERGING_FIAT: 1_600n, MOBILE_MONEY_FIAT: 2_100n, STABLECOIN: 525n, BITCOIN: 10n },
  },
};

export interface CorridorOverride {
  variableBps?: number;
  spreadBps?: number;
  fixedFeeMinor?: bigint;
  minSendingMinor?: bigint;
  maxSendingMinor?: bigint;
}

/** Single corridors priced apart from their class, keyed `FROM:TO`. */
export const CORRIDOR_OVERRIDES: Readonly<Record<string, CorridorOverride>> = {
  // The busiest remittance corridors: tighter spread.
  'USD:MXN': { variableBps: 30, spreadBps: 40 },
  'USD:INR': { spreadBps: 60 },
  'USD:PHP': { spreadBps: 60 },
  // Dollar stablecoins and dollars at par: minting and redeeming carry no FX risk.
  'USD:USDC': { variableBps: 10, spreadBps: 0 },
  'USD:USDT': { variableBps: 10, spreadBps: 0 },
  'USD:USDB': { variableBps: 0, spreadBps: 0 },
  'USDC:USD': { variableBps: 10, spreadBps: 0 },
  'USDT:USD': { variableBps: 10, spreadBps: 0 },
  'USDB:USD': { variableBps: 0, spreadBps: 0 },
  'USDC:USDB': { variableBps: 5, spreadBps: 0 },
  'USDB:USDC': { variableBps: 5, spreadBps: 0 },
};

/**
 * The rail a payout in each receiving currency goes by when the destination does not name one
 * (GET /exchange-rates `destinationPaymentRail`); one of that currency's account rails
 * (external-accounts account-types.ts). Crypto names its network: the reference's PaymentRail
 * enum has no crypto rails.
 */
export const DESTINATION_RAILS: Readonly<Record<string, string>> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  GBP: 'FASTER_PAYMENTS',
  MXN: 'SPEI',
  BRL: 'PIX',
  CAD: 'BANK_TRANSFER',
  INR: 'UPI',
  NGN: 'BANK_TRANSFER',
  PHP: 'BANK_TRANSFER',
  KES: 'MOBILE_MONEY',
  HKD: 'BANK_TRANSFER',
  SGD: 'PAYNOW',
  DKK: 'SEPA',
  ZAR: 'BANK_TRANSFER',
  COP: 'BANK_TRANSFER',
  IDR: 'BANK_TRANSFER',
  THB: 'BANK_TRANSFER',
  MYR: 'BANK_TRANSFER',
  VND: 'BANK_TRANSFER',
  XOF: 'MOBILE_MONEY',
  XAF: 'MOBILE_MONEY',
  AED: 'BANK_TRANSFER',
  BDT: 'BANK_TRANSFER',
  BWP: 'MOBILE_MONEY',
  CNY: 'BANK_TRANSFER',
  EGP: 'BANK_TRANSFER',
  GHS: 'MOBILE_MONEY',
  GTQ: 'BANK_TRANSFER',
  HTG: 'MOBILE_MONEY',
  ILS: 'BANK_TRANSFER',
  JMD: 'BANK_TRANSFER',
  MWK: 'MOBILE_MONEY',
  PKR: 'BANK_TRANSFER',
  RWF: 'MOBILE_MONEY',
  TRY: 'BANK_TRANSFER',
  TZS: 'MOBILE_MONEY',
  UGX: 'MOBILE_MONEY',
  ZMW: 'MOBILE_MONEY',
  BTC: 'LIGHTNING',
  USDC: 'SOLANA',
  USDT: 'TRON',
  USDB: 'SPARK',
};

/**
 * How long a quote's rate is held, per payout rail (spec §2.6: instant rails 1 to 5 minutes,
 * others longer). Instant rails settle within seconds, so the rate risk is short; batch rails
 * (ACH, SEPA, SWIFT, bank transfers, mobile money) get 15 minutes to fund and execute.
 */
export const RAIL_LIFETIME_SECONDS: Readonly<Record<string, number>> = {
  // Bitcoin layer 2 and fast chains
  LIGHTNING: 60,
  SPARK: 60,
  SOLANA: 120,
  BASE: 120,
  POLYGON: 120,
  ARBITRUM: 120,
  PLASMA: 120,
  TRON: 180,
  ETHEREUM: 300,
  BITCOIN: 300,
  // Instant bank rails
  RTP: 120,
  FEDNOW: 120,
  SEPA_INSTANT: 120,
  FASTER_PAYMENTS: 120,
  SPEI: 180,
  PIX: 180,
  UPI: 180,
  INSTAPAY: 180,
  PAYNOW: 180,
  FAST: 180,
  BRE_B: 180,
  // Batch and correspondent rails
  ACH: 900,
  ACH_COLOMBIA: 900,
  WIRE: 900,
  SWIFT: 900,
  SEPA: 900,
  BANK_TRANSFER: 900,
  MOBILE_MONEY: 900,
  NEFT: 900,
  RTGS: 900,
  PESONET: 900,
  CIPS: 900,
  UNIONPAY: 900,
};

/** A rail missing from the table holds its rate the shortest time: the cautious choice. */
export const UNKNOWN_RAIL_LIFETIME_SECONDS = 60;
