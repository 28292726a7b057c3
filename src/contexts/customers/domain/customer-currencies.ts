import type { Region } from '../../platforms';
import { EU_REGION_CODE, isCountryCode, jurisdictionOf, type Jurisdiction } from '../../../domain/countries';
import { findCurrency } from '../../../domain/currencies';

/**
 * Which currencies one customer may hold together.
 *
 * Accounts in EUR are held with the EU provider and accounts in GBP with the UK provider; every
 * other currency (USD, the other fiat currencies, crypto) is held with the global provider and
 * combines with anything. A customer has one regulatory region, so:
 *  - a customer in the EU (region `EU` or an EEA country) may hold EUR but not GBP;
 *  - a customer in the UK (region `GB`) may hold GBP but not EUR;
 *  - any other customer may hold EUR or GBP, not both (they would need two regional providers).
 * A combination outside these rules needs separate customers; the conflicting currencies are
 * named in the error.
 */
export const REGIONAL_PROVIDER: Readonly<Record<string, Jurisdiction>> = { EUR: 'EU', GBP: 'UK' };

/** The currencies of `currencies` that cannot be held by one customer of `regionCode` (empty: the combination is fine). */
export function conflictingCurrencies(regionCode: string | null | undefined, currencies: readonly string[]): string[] {
  const regional = [...new Set(currencies)].filter((c) => REGIONAL_PROVIDER[c] !== undefined);
  const home = jurisdictionOf(regionCode);
  if (home === 'EU' || home === 'UK') return regional.filter((c) => REGIONAL_PROVIDER[c] !== home);
  const providers = new Set(regional.map((c) => REGIONAL_PROVIDER[c]));
  return providers.size > 1 ? regional : [];
}

/** Currencies the service knows (ISO 4217 fiat and crypto tickers of `currencies.ts`). */
export function isKnownCurrency(code: unknown): code is string {
  return typeof code === 'string' && findCurrency(code) !== undefined;
}

/** The requested currencies the platform does not offer. */
export function unsupportedCurrencies(requested: readonly string[], platformCurrencies: readonly string[]): string[] {
  return requested.filter((c) => !platformCurrencies.includes(c));
}

/**
 * A new customer's region when the request does not name one: the platform's home jurisdiction
 * (US, EU, or GB for the UK); platforms of a multi-country region use the customer's own country
 * (address, nationality or country of incorporation) when given.
 */
export function defaultRegionCode(platformRegion: Region, customerCountry?: string | null): string | null {
  switch (platformRegion) {
    case 'US':
      return 'US';
    case 'EU':
      return EU_REGION_CODE;
    case 'UK':
      return 'GB';
    default:
      return isCountryCode(customerCountry) ? customerCountry : null;
  }
}

/** A new customer's currencies when the request names none: the platform's, minus those its region cannot combine. */
export function defaultCurrencies(platformCurrencies: readonly string[], regionCode: string | null | undefined): string[] {
  const conflicts = new Set(conflictingCurrencies(regionCode, platformCurrencies));
  return platformCurrencies.filter((c) => !conflicts.has(c));
}
