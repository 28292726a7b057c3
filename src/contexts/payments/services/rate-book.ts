import { DomainError } from '../../../domain/errors';
import { findCurrency } from '../../../domain/currencies';
import { corridorTerms, findCorridorTerms } from '../domain/pricing/corridors';
import { applySpread, midRate, type Rational } from '../domain/pricing/rates';

/** Where rates come from: receiving major units per sending major unit, or undefined when there is none now. */
export type RateSource = (from: string, to: string) => Rational | undefined;

export interface BookedRate {
  /** Receiving major units per sending major unit, the corridor's spread included, fees excluded. */
  rate: Rational;
  fetchedAt: Date;
  /** fetchedAt + the cache lifetime: after it the pair is fetched again. */
  expiresAt: Date;
}

/** Spec §1 and §8: exchange rates are cached about 5 minutes. */
export const RATE_CACHE_MS = 5 * 60 * 1000;

/** The sandbox's source: the fixed mid rate (rates.ts) worsened by the corridor's spread (corridors.ts). */
export const sandboxRateSource: RateSource = (from, to) => {
  const mid = midRate(from, to);
  const terms = findCorridorTerms(from, to);
  return mid && terms ? applySpread(mid, terms.spreadBps) : undefined;
};

/**
 * The rates quotes and GET /exchange-rates use, each corridor cached for 5 minutes from the time
 * it was fetched. A corridor the service does not offer is `400 INVALID_CURRENCY`; a corridor
 * the source has no rate for now is `400 QUOTE_RATE_UNAVAILABLE` (and is not cached, so the next
 * call asks again).
 */
export class RateBook {
  private readonly cache = new Map<string, BookedRate>();

  constructor(
    private readonly source: RateSource = sandboxRateSource,
    private readonly ttlMs: number = RATE_CACHE_MS,
  ) {}

  quote(from: string, to: string, now: Date = new Date()): BookedRate {
    for (const code of [from, to]) {
      if (!findCurrency(code)) throw new DomainError('INVALID_CURRENCY', `Unknown currency ${code}`, { currency: code });
    }
    corridorTerms(from, to); // refuses corridors that do not exist
    const key = `${from}:${to}`;
    const cached = this.cache.get(key);
    // A clock that went back before the fetch also refreshes: a rate is never used before it was fetched.
    if (cached && now.getTime() < cached.expiresAt.getTime() && now.getTime() >= cached.fetchedAt.getTime()) return cached;
    const rate = this.source(from, to);
    if (!rate || rate.num <= 0n || rate.den <= 0n) {
      this.cache.delete(key);
      throw new DomainError('QUOTE_RATE_UNAVAILABLE', `No ${from} to ${to} rate is available now; try again shortly`, {
        sendingCurrency: from,
        receivingCurrency: to,
      });
    }
    const booked: BookedRate = { rate, fetchedAt: new Date(now.getTime()), expiresAt: new Date(now.getTime() + this.ttlMs) };
    this.cache.set(key, booked);
    return booked;
  }

  /** Forgets every cached rate (tests; a rate-table change). */
  clear(): void {
    this.cache.clear();
  }
}

/** The process's rate book. */
export const rateBook = new RateBook();
