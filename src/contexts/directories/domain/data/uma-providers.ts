/**
 * Providers that offer Universal Money Addresses (`$name@domain`) to their customers: among the
 * first wallets, exchanges and banks announced for the UMA standard. Currencies are those of
 * `src/domain/currencies.ts` each provider pays out in; see DIRECTORY_DATA_VERSION.
 */
export interface UmaProviderEntry {
  name: string;
  /** The domain of the provider's UMA addresses. */
  domain: string;
  /** ISO 3166-1 alpha-2 codes of the countries it serves. */
  supportedRegions: readonly string[];
  /** Currency codes, each known to src/domain/currencies.ts. */
  supportedCurrencies: readonly string[];
  logoUrl?: string;
  lei?: string;
}

export const UMA_PROVIDERS: readonly UmaProviderEntry[] = [
  { name: 'Bitnob', domain: 'bitnob.com', supportedRegions: ['NG', 'GH', 'KE'], supportedCurrencies: ['NGN', 'GHS', 'KES', 'BTC', 'USDT'] },
  { name: 'Coins.ph', domain: 'coins.ph', supportedRegions: ['PH'], supportedCurrencies: ['PHP', 'BTC', 'USDT'] },
  { name: 'Foxbit', domain: 'foxbit.com.br', supportedRegions: ['BR'], supportedCurrencies: ['BRL', 'BTC'] },
  { name: 'Ripio', domain: 'ripio.com', supportedRegions: ['AR', 'BR', 'MX', 'CO'], supportedCurrencies: ['BRL', 'MXN', 'COP', 'BTC', 'USDC'] },
  { name: 'Xapo Bank', domain: 'xapobank.com', supportedRegions: ['GI', 'GB', 'ES', 'MX', 'BR'], supportedCurrencies: ['USD', 'BTC', 'USDC'] },
];
