/**
 * Virtual Asset Service Providers (exchanges and custodians) a counterparty may be declared at.
 * `vaspName` is the canonical name clients send back; see DIRECTORY_DATA_VERSION.
 */
export interface VaspEntry {
  vaspName: string;
  /** The provider's public website. */
  url?: string;
}

export const VASPS: readonly VaspEntry[] = [
  { vaspName: 'Anchorage Digital', url: 'https://www.anchorage.com' },
  { vaspName: 'Binance', url: 'https://www.binance.com' },
  { vaspName: 'BitGo', url: 'https://www.bitgo.com' },
  { vaspName: 'Bitfinex', url: 'https://www.bitfinex.com' },
  { vaspName: 'Bitpanda', url: 'https://www.bitpanda.com' },
  { vaspName: 'Bitso', url: 'https://bitso.com' },
  { vaspName: 'Bitstamp', url: 'https://www.bitstamp.net' },
  { vaspName: 'Bybit', url: 'https://www.bybit.com' },
  { vaspName: 'Coinbase', url: 'https://www.coinbase.com' },
  { vaspName: 'Crypto.com', url: 'https://crypto.com' },
  { vaspName: 'Gemini', url: 'https://www.gemini.com' },
  { vaspName: 'Kraken', url: 'https://www.kraken.com' },
  { vaspName: 'KuCoin', url: 'https://www.kucoin.com' },
  { vaspName: 'Luno', url: 'https://www.luno.com' },
  { vaspName: 'OKX', url: 'https://www.okx.com' },
  { vaspName: 'Robinhood Crypto', url: 'https://robinhood.com' },
  { vaspName: 'Upbit', url: 'https://upbit.com' },
];
