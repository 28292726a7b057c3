import { DomainError } from '../../../domain/errors';
import { MAX_AMOUNT } from '../../../domain/money';

/** The base currency's minor unit has two decimals (every base currency the provider issues against: USD). */
const FIAT_DECIMALS = 2;

/**
 * A token amount (smallest unit of a token with `decimals`) in the base currency's minor unit.
 * The amount must convert exactly to a whole cent: with 6 decimals a cent is 10,000 units, so
 * 1,005,000 units is refused (STABLECOIN_AMOUNT_NOT_REPRESENTABLE) rather than rounded.
 */
export function tokenAmountInCents(amount: bigint, decimals: number): bigint {
  if (decimals <= FIAT_DECIMALS) return amount * 10n ** BigInt(FIAT_DECIMALS - decimals);
  const unitsPerCent = 10n ** BigInt(decimals - FIAT_DECIMALS);
  if (amount % unitsPerCent !== 0n) {
    throw new DomainError(
      'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
      `The amount is not a whole cent for a token with ${decimals} decimals: it must be a multiple of ${unitsPerCent}`,
      {
        errors: [{ field: 'amount', constraint: 'multipleOf', message: `must be a multiple of ${unitsPerCent} (one cent)` }],
      },
    );
  }
  return amount / unitsPerCent;
}

/** The amount a request carries, checked: positive, and worth no more than the ledger's largest amount. */
export function parseOperationAmount(amount: string, decimals: number): { units: bigint; cents: bigint } {
  const units = BigInt(amount);
  if (units <= 0n) throw DomainError.invalidInput([{ field: 'amount', constraint: 'minimum', message: 'must be greater than 0' }]);
  const cents = tokenAmountInCents(units, decimals);
  if (cents > MAX_AMOUNT)
    throw DomainError.invalidInput([
      { field: 'amount', constraint: 'maximum', message: `is worth more than the largest amount the ledger holds (${MAX_AMOUNT} minor units)` },
    ]);
  return { units, cents };
}
