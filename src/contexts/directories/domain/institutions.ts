import { MOBILE_MONEY_PROVIDERS, RECEIVING_INSTITUTIONS, type MobileMoneyProvider, type ReceivingInstitution } from './data/institutions';

export type { InstitutionRail, MobileMoneyProvider, ReceivingInstitution } from './data/institutions';

/** An entry of GET /discoveries: a bank, wallet or mobile-money provider of one corridor. */
export interface Discovery {
  /** The value to send as `bankName` (or, for a mobile-money account, as `provider`). */
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

const fold = (name: string) => name.toLowerCase();

function indexBy<T>(entries: readonly T[], currencyOf: (e: T) => string, nameOf: (e: T) => string): Map<string, Map<string, T>> {
  const index = new Map<string, Map<string, T>>();
  for (const entry of entries) {
    const names = index.get(currencyOf(entry)) ?? new Map<string, T>();
    names.set(fold(nameOf(entry)), entry);
    index.set(currencyOf(entry), names);
  }
  return index;
}

const institutionsByCurrency = indexBy(
  RECEIVING_INSTITUTIONS,
  (i) => i.currency,
  (i) => i.bankName,
);
const providersByCurrency = indexBy(
  MOBILE_MONEY_PROVIDERS,
  (p) => p.currency,
  (p) => p.provider,
);

/**
 * The institution of `currency` whose canonical `bankName` is `bankName`, ignoring case only
 * (no trimming, no accents folded, no partial match); undefined when there is none.
 */
export function findReceivingInstitution(currency: string, bankName: string): ReceivingInstitution | undefined {
  return institutionsByCurrency.get(currency)?.get(fold(bankName));
}

/** The currencies whose accounts must name a `bankName` from the directory (a fresh set each call). */
export function currenciesWithInstitutionDirectory(): Set<string> {
  return new Set(institutionsByCurrency.keys());
}

/**
 * The mobile-money provider of `currency` named `provider` (case-insensitive, exact), optionally
 * only if it pays out in `country`; undefined when there is none.
 */
export function findMobileMoneyProvider(currency: string, provider: string, country?: string): MobileMoneyProvider | undefined {
  const found = providersByCurrency.get(currency)?.get(fold(provider));
  return found && (country === undefined || found.countries.includes(country)) ? found : undefined;
}

/** The currencies whose mobile-money accounts name a `provider` from the directory (a fresh set each call). */
export function currenciesWithMobileMoneyDirectory(): Set<string> {
  return new Set(providersByCurrency.keys());
}

const ALL_DISCOVERIES: readonly Discovery[] = [
  ...RECEIVING_INSTITUTIONS.map(({ bankName, displayName, country, currency }) => ({ bankName, displayName, country, currency })),
  ...MOBILE_MONEY_PROVIDERS.flatMap(({ provider, displayName, currency, countries }) =>
    countries.map((country) => ({ bankName: provider, displayName, country, currency })),
  ),
];

/** Every bank, wallet and mobile-money provider of the corridors, filtered by country and currency (both exact). */
export function discoveries(filter: { country?: string; currency?: string } = {}): Discovery[] {
  return ALL_DISCOVERIES.filter(
    (d) => (filter.country === undefined || d.country === filter.country) && (filter.currency === undefined || d.currency === filter.currency),
  );
}

/** The order of GET /discoveries: by country, then currency, then name regardless of case. Unique. */
export function discoveryKey(d: Discovery): string {
  return `${d.country} ${d.currency} ${fold(d.bankName)}`;
}
