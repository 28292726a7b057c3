/**
 * Pricing a quote: exact bigint arithmetic from the locked amount to every amount of the quote.
 *
 * THE ROUNDING RULE (one rule, applied everywhere; it never creates money):
 *
 *   1. Fees first, on totalSendingAmount S, in sending minor units. Fixed fees are taken as they
 *      are. The variable fees of the service and the platform are rounded UP as one sum:
 *      variable = ceil(S × (serviceBps + platformBps) / 10000). The platform's share is
 *      ceil(S × platformBps / 10000) (so platformFeesIncluded is never below its own schedule) and
 *      the service's share is the rest. The customer never pays less than the schedule, and pays
 *      at most one minor unit more than the exact variable fee.
 *   2. amountToConvert = S − feesIncluded, exactly; nothing is lost or invented in between.
 *   3. The receiving amount is the exact value amountToConvert × rate rounded DOWN (floor) to a
 *      receiving minor unit: never more than the exact value, less by under one minor unit.
 *   4. Locked RECEIVING amount T: S is the SMALLEST sending amount whose steps 1–3 give a receiving
 *      amount ≥ T, and the quote reports exactly T. The surplus (the floored value minus T, worth
 *      less than one sending minor unit) stays with the service; the recipient gets exactly T.
 *
 * Hence, always: totalSendingAmount = amountToConvert + feesIncluded exactly, and
 * totalReceivingAmount ≤ amountToConvert × rate exactly. Summing the variable fees before
 * rounding keeps amountToConvert non-decreasing in S, which makes the smallest S of step 4 exist
 * and be found in closed form.
 */
import { DomainError } from '../../../../domain/errors';
import { rational, rationalToNumber, type Rational } from './rates';

export type LockedSide = 'SENDING' | 'RECEIVING';

export interface FeeSchedule {
  /** Sending minor units, ≥ 0. */
  fixedMinor: bigint;
  /** Integer basis points of totalSendingAmount, 0..10000. */
  variableBps: number;
}

export interface PriceQuoteInput {
  lockedSide: LockedSide;
  /** Minor units of the locked side's currency, > 0. */
  lockedAmount: bigint;
  sending: { code: string; decimals: number };
  receiving: { code: string; decimals: number };
  /** Receiving MAJOR units per 1 sending MAJOR unit, fee-exclusive, spread already applied; > 0. */
  rate: Rational;
  serviceFee: FeeSchedule;
  platformFee: FeeSchedule;
}

export interface QuoteRateDetails {
  /** The conversion multiplier: receiving major units per sending major unit (the `rate`). */
  counterpartyMultiplier: number;
  /** Receiving minor units; always 0 here (every fee is charged in the sending currency). */
  counterpartyFixedFee: bigint;
  /** Sending units that reach conversion per sending unit, net of all variable fees: 1 − (service + platform bps)/10000. */
  gridApiMultiplier: number;
  /** The service's fixed fee, sending minor units. */
  gridApiFixedFee: bigint;
  /** The service's variable fee as a fraction (30 bps → 0.003). */
  gridApiVariableFeeRate: number;
  /** The service's variable fee, sending minor units (≈ totalSendingAmount × gridApiVariableFeeRate, see rule 1). */
  gridApiVariableFeeAmount: bigint;
}

export interface PricedQuote {
  totalSendingAmount: bigint;
  totalReceivingAmount: bigint;
  /** Service + platform fees, sending minor units. */
  feesIncluded: bigint;
  /** The platform's part of feesIncluded. */
  platformFeesIncluded: bigint;
  /** totalSendingAmount − feesIncluded. */
  amountToConvert: bigint;
  /**
   * For display: SENDING major units per RECEIVING major unit, fee-exclusive (spec §2.6 and the
   * reference's Quote.exchangeRate; e.g. USD→EUR ≈ 1.087), 12 significant digits.
   */
  exchangeRate: number;
  /** For display: RECEIVING major units per SENDING major unit (the `rate` input; USD→EUR ≈ 0.92). */
  receivingPerSendingRate: number;
  rateDetails: QuoteRateDetails;
}

const BPS = 10_000n;
const MAX_DECIMALS = 18;

function checkInput(input: PriceQuoteInput): void {
  for (const side of [input.sending, input.receiving]) {
    if (!Number.isInteger(side.decimals) || side.decimals < 0 || side.decimals > MAX_DECIMALS)
      throw new RangeError(`decimals must be an integer 0..${MAX_DECIMALS}, got ${side.decimals}`);
  }
  if (input.rate.num <= 0n || input.rate.den <= 0n) throw new RangeError('rate must be a positive rational');
  for (const fee of [input.serviceFee, input.platformFee]) {
    if (fee.fixedMinor < 0n) throw new RangeError('fixed fees must not be negative');
    if (!Number.isInteger(fee.variableBps) || fee.variableBps < 0 || fee.variableBps > 10_000)
      throw new RangeError(`variable fees must be integer bps 0..10000, got ${fee.variableBps}`);
  }
}

export interface FeeBreakdown {
  /** Everything: fixed and variable, service and platform. */
  total: bigint;
  fixed: bigint;
  platform: bigint;
  serviceFixed: bigint;
  serviceVariable: bigint;
}

/** The fees on a totalSendingAmount of `sendingMinor`, by rule 1. */
export function computeFees(sendingMinor: bigint, serviceFee: FeeSchedule, platformFee: FeeSchedule): FeeBreakdown {
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const variable = ceilDiv(sendingMinor * BigInt(serviceFee.variableBps + platformFee.variableBps), BPS);
  const platformVariable = ceilDiv(sendingMinor * BigInt(platformFee.variableBps), BPS);
  const fixed = serviceFee.fixedMinor + platformFee.fixedMinor;
  return {
    total: fixed + variable,
    fixed,
    platform: platformFee.fixedMinor + platformVariable,
    serviceFixed: serviceFee.fixedMinor,
    serviceVariable: variable - platformVariable,
  };
}

/**
 * Minor-to-minor conversion factor as a rational: receiving minor units per sending minor unit,
 * rate × 10^receivingDecimals / 10^sendingDecimals.
 */
export function minorRate(rate: Rational, sendingDecimals: number, receivingDecimals: number): Rational {
  return rational(rate.num * 10n ** BigInt(receivingDecimals), rate.den * 10n ** BigInt(sendingDecimals));
}

/** floor(amount × k): rule 3. */
export function convertDown(amountMinor: bigint, k: Rational): bigint {
  return (amountMinor * k.num) / k.den;
}

const outOfRange = (reason: string, details: Record<string, unknown>) => new DomainError('AMOUNT_OUT_OF_RANGE', reason, details);

/**
 * Prices a quote by the rounding rule at the top of this file. Throws `AMOUNT_OUT_OF_RANGE` when
 * the locked amount is not positive or nothing would be left to convert or received. Corridor
 * limits are the caller's (corridors.ts assertWithinCorridorLimits); bad inputs (negative fees,
 * decimals outside 0..18, a non-positive rate) are programming errors and throw RangeError.
 */
export function priceQuote(input: PriceQuoteInput): PricedQuote {
  checkInput(input);
  const { serviceFee, platformFee } = input;
  const k = minorRate(input.rate, input.sending.decimals, input.receiving.decimals);
  const variableBps = BigInt(serviceFee.variableBps + platformFee.variableBps);
  const details = {
    lockedSide: input.lockedSide,
    lockedAmount: input.lockedAmount,
    sendingCurrency: input.sending.code,
    receivingCurrency: input.receiving.code,
  };
  if (input.lockedAmount <= 0n) throw outOfRange('The locked amount must be greater than zero', details);
  if (variableBps >= BPS) throw outOfRange('The variable fees leave nothing to convert', details);

  let totalSending: bigint;
  if (input.lockedSide === 'SENDING') {
    totalSending = input.lockedAmount;
  } else {
    // Smallest amountToConvert A with floor(A·k) ≥ T is ceil(T/k); smallest S with
    // S − fixed − ceil(S·v/10000) ≥ A, i.e. floor(S·(10000−v)/10000) ≥ A + fixed, is
    // ceil((A + fixed)·10000 / (10000 − v)).
    const T = input.lockedAmount;
    const minConvert = (T * k.den + k.num - 1n) / k.num;
    const fixed = serviceFee.fixedMinor + platformFee.fixedMinor;
    totalSending = ((minConvert + fixed) * BPS + (BPS - variableBps) - 1n) / (BPS - variableBps);
  }

  const fees = computeFees(totalSending, serviceFee, platformFee);
  const amountToConvert = totalSending - fees.total;
  if (amountToConvert <= 0n) throw outOfRange(`The fees (${fees.total}) leave nothing of ${totalSending} to convert`, { ...details, feesIncluded: fees.total });
  const converted = convertDown(amountToConvert, k);
  if (converted <= 0n) throw outOfRange('The amount converts to less than one minor unit of the receiving currency', { ...details, amountToConvert });

  let totalReceiving = converted;
  if (input.lockedSide === 'RECEIVING') {
    // The closed form above guarantees it; a failure here is a bug, never a price.
    if (converted < input.lockedAmount) throw DomainError.internal('pricing could not cover the locked receiving amount');
    totalReceiving = input.lockedAmount;
  }

  return {
    totalSendingAmount: totalSending,
    totalReceivingAmount: totalReceiving,
    feesIncluded: fees.total,
    platformFeesIncluded: fees.platform,
    amountToConvert,
    exchangeRate: rationalToNumber({ num: input.rate.den, den: input.rate.num }),
    receivingPerSendingRate: rationalToNumber(input.rate),
    rateDetails: {
      counterpartyMultiplier: rationalToNumber(input.rate),
      counterpartyFixedFee: 0n,
      gridApiMultiplier: Number(BPS - variableBps) / 10_000,
      gridApiFixedFee: fees.serviceFixed,
      gridApiVariableFeeRate: serviceFee.variableBps / 10_000,
      gridApiVariableFeeAmount: fees.serviceVariable,
    },
  };
}
