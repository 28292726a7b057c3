import type { FieldError } from '../../../domain/errors';

/**
 * Platform fee configs (reference: PlatformConfigUpdateRequest.feeConfigs, FeeConfig). PATCH
 * /config treats them as a merge-by-key upsert keyed by (feeType, sourceCurrency): each config
 * sent replaces the stored one with its key or adds it, configs not sent stay, and a config with
 * a zero variable fee and a zero fixed fee deactivates (removes) the stored one with its key.
 * Omitting `feeConfigs` leaves them unchanged; `[]` therefore changes nothing.
 */
export interface FeeConfig {
  feeType: string;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/**
 * Only USD is accepted as a source currency today. The reference answers others 501
 * NOT_IMPLEMENTED; here they are the client's to fix, a 400 naming each such config (docs/deviations.md).
 */
export const FEE_SOURCE_CURRENCIES: readonly string[] = ['USD'];

const keyOf = (f: Pick<FeeConfig, 'feeType' | 'sourceCurrency'>) => `${f.feeType}:${f.sourceCurrency}`;

/** Zero bps and a zero fixed fee: the config charges nothing and is not active. */
export function isActiveFeeConfig(f: FeeConfig): boolean {
  return f.variableFeeBps !== 0 || f.fixedFee.amount !== 0;
}

/** The stored configs after a PATCH's `feeConfigs`: upserted by key, zero configs removed. */
export function mergeFeeConfigs(current: readonly FeeConfig[], updates: readonly FeeConfig[]): FeeConfig[] {
  const merged = new Map(current.map((f) => [keyOf(f), f]));
  for (const f of updates) {
    if (isActiveFeeConfig(f)) merged.set(keyOf(f), f);
    else merged.delete(keyOf(f));
  }
  return [...merged.values()];
}

/** Field errors for fee configs whose source currency is a real one but not accepted (yet), each with the accepted ones. */
export function unsupportedFeeSourceCurrencies(feeConfigs: unknown, knownCurrencies: readonly string[]): FieldError[] {
  if (!Array.isArray(feeConfigs)) return [];
  return feeConfigs.flatMap((f: unknown, i) => {
    const code = f && typeof f === 'object' ? (f as Record<string, unknown>).sourceCurrency : undefined;
    if (typeof code !== 'string' || !knownCurrencies.includes(code) || FEE_SOURCE_CURRENCIES.includes(code)) return [];
    return [
      {
        field: `feeConfigs.${i}.sourceCurrency`,
        constraint: 'supportedCurrency',
        message: `fee configs are accepted only for source currency ${FEE_SOURCE_CURRENCIES.join(', ')} today`,
        hint: { enum: [...FEE_SOURCE_CURRENCIES] },
      },
    ];
  });
}
