/**
 * Fixed sandbox mid-market rates (spec §8: sandbox exchange rates are fixed and may not track the
 * market). Each entry is how many MAJOR units of the currency one US dollar buys, written as an
 * exact decimal string: it is parsed into a rational, never into a float, and every cross rate is
 * derived from two entries exactly (rates.ts).
 *
 * Bump RATE_DATA_VERSION whenever a number changes, so that a quote or a log line can say which
 * table priced it. Every currency of src/domain/currencies.ts must appear (test/unit/pricing.test.ts).
 */
export const RATE_DATA_VERSION = '2026-11-24.1';

export const UNITS_PER_USD: Readonly<Record<string, string>> = {
  // Reserve and major currencies
  USD: '1',
  EUR: '0.9200',
  GBP: '0.7900',
  CAD: '1.3650',
  HKD: '7.8100',
  SGD: '1.3450',
  DKK: '6.8600',
  CNY: '7.2400',
  AED: '3.6725',
  ILS: '3.7000',
  // Latin America and the Caribbean
  MXN: '17.2350',
  BRL: '5.4200',
  COP: '3950.00',
  GTQ: '7.7600',
  HTG: '132.50',
  JMD: '156.00',
  // Asia
  INR: '83.2500',
  PHP: '56.4000',
  IDR: '15850.00',
  THB: '35.9000',
  MYR: '4.7200',
  VND: '24550',
  BDT: '117.50',
  PKR: '278.50',
  TRY: '32.8000',
  // Africa
  NGN: '1550.00',
  KES: '129.50',
  ZAR: '18.6500',
  XOF: '603.50',
  XAF: '603.50',
  EGP: '48.5000',
  GHS: '15.2000',
  BWP: '13.6000',
  MWK: '1735.00',
  RWF: '1310',
  TZS: '2580.00',
  UGX: '3780',
  ZMW: '26.4000',
  // Crypto: the dollar stablecoins at par, bitcoin at about 95,238 USD
  USDC: '1',
  USDT: '1',
  USDB: '1',
  BTC: '0.0000105',
};
