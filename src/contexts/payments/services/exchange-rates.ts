import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform, type FeeConfig } from '../../platforms';
import { currency, currencyView } from '../../../domain/currencies';
import { corridorTerms, destinationRail } from '../domain/pricing/corridors';
import { platformFeeFor } from '../domain/pricing/platform-fees';
import { computeFees, convertDown, minorRate } from '../domain/pricing/quote-math';
import { isSupportedCorridor, rationalToNumber, receivingCurrencies, SENDING_CURRENCIES } from '../domain/pricing/rates';
import { rateBook as defaultRateBook, type RateBook } from './rate-book';

/** GET /exchange-rates prices this sending amount when none is given (reference default). */
export const DEFAULT_SENDING_AMOUNT = 10_000n;

export interface ExchangeRateFilter {
  feeConfigs: readonly FeeConfig[];
  sourceCurrency?: string;
  destinationCurrencies?: readonly string[];
  sendingAmount: bigint;
  now?: Date;
  rateBook?: RateBook;
}

/**
 * The reference's ExchangeRate for every corridor the filter selects: the cached rate (spread
 * included) applied to `sendingAmount` after the service's and the platform's fees, by the same
 * rounding rule as quotes (quote-math.ts). Indicative only: a quote locks a rate. When the fees
 * take the whole amount, receivingAmount is 0. Corridors in SENDING_CURRENCIES order, then in the
 * order of src/domain/currencies.ts.
 */
export function listExchangeRates(filter: ExchangeRateFilter) {
  const book = filter.rateBook ?? defaultRateBook;
  const now = filter.now ?? new Date();
  const sources = SENDING_CURRENCIES.filter((c) => !filter.sourceCurrency || c === filter.sourceCurrency);
  const wanted = filter.destinationCurrencies && filter.destinationCurrencies.length > 0 ? new Set(filter.destinationCurrencies) : undefined;
  const destinations = receivingCurrencies().filter((c) => !wanted || wanted.has(c));
  const S = filter.sendingAmount;
  return sources.flatMap((from) =>
    destinations
      .filter((to) => isSupportedCorridor(from, to))
      .map((to) => {
        const terms = corridorTerms(from, to);
        const booked = book.quote(from, to, now);
        const fees = computeFees(S, terms.serviceFee, platformFeeFor(filter.feeConfigs, from, to));
        const toConvert = S - fees.total;
        const k = minorRate(booked.rate, currency(from).decimals, currency(to).decimals);
        return {
          sourceCurrency: currencyView(from),
          sendingAmount: S,
          minSendingAmount: terms.minSendingMinor,
          maxSendingAmount: terms.maxSendingMinor,
          destinationCurrency: currencyView(to),
          destinationPaymentRail: destinationRail(to)!,
          receivingAmount: toConvert > 0n ? convertDown(toConvert, k) : 0n,
          // Sending major units per receiving major unit, fee-exclusive (as on quotes).
          exchangeRate: rationalToNumber({ num: booked.rate.den, den: booked.rate.num }),
          fees: { fixed: fees.fixed, total: fees.total },
          updatedAt: booked.fetchedAt.toISOString(),
        };
      }),
  );
}

/** GET /exchange-rates: the corridors the filters select, with the platform's fees (its settings read first). */
export async function platformExchangeRates(
  em: EntityManager,
  platformId: string,
  query: { sourceCurrency?: string | undefined; destinationCurrency?: readonly string[] | undefined; sendingAmount?: string | number | bigint | undefined },
) {
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  return listExchangeRates({
    feeConfigs: platform.feeConfigs,
    sourceCurrency: query.sourceCurrency,
    destinationCurrencies: query.destinationCurrency,
    sendingAmount: query.sendingAmount === undefined ? DEFAULT_SENDING_AMOUNT : BigInt(query.sendingAmount),
  });
}
