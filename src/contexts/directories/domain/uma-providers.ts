import { currencyView } from '../../../domain/currencies';
import { UMA_PROVIDERS, type UmaProviderEntry } from './data/uma-providers';

export type { UmaProviderEntry } from './data/uma-providers';

/** An entry of GET /uma-providers. */
export interface UmaProviderView {
  name: string;
  domain: string;
  supportedRegions: string[];
  supportedCurrencies: { code: string; name: string; symbol: string; decimals: number }[];
  logoUrl?: string;
  lei?: string;
  /**
   * Whether the provider is on the platform's allow list. Platforms have no allow list of their
   * own yet: every provider of the directory is allowed for every platform, so this is always true.
   */
  allowListStatus: boolean;
}

export interface UmaProviderFilter {
  /** Providers serving this country (ISO 3166-1 alpha-2). */
  countryCode?: string;
  /** Providers paying out in this currency. */
  currencyCode?: string;
  /** false leaves out providers not on the allow list; true or absent keeps them. */
  hasBlockedProviders?: boolean;
}

function view(p: UmaProviderEntry): UmaProviderView {
  return {
    name: p.name,
    domain: p.domain,
    supportedRegions: [...p.supportedRegions],
    supportedCurrencies: p.supportedCurrencies.map(currencyView),
    ...(p.logoUrl ? { logoUrl: p.logoUrl } : {}),
    ...(p.lei ? { lei: p.lei } : {}),
    allowListStatus: true,
  };
}

/** The providers matching every filter given. */
export function umaProviders(filter: UmaProviderFilter = {}): UmaProviderView[] {
  return UMA_PROVIDERS.filter(
    (p) =>
      (filter.countryCode === undefined || p.supportedRegions.includes(filter.countryCode)) &&
      (filter.currencyCode === undefined || p.supportedCurrencies.includes(filter.currencyCode)),
  )
    .map(view)
    .filter((p) => filter.hasBlockedProviders !== false || p.allowListStatus);
}

/** The order of GET /uma-providers: by name regardless of case, then domain. Unique. */
export function umaProviderKey(p: { name: string; domain: string }): string {
  return `${p.name.toLowerCase()} ${p.domain}`;
}
