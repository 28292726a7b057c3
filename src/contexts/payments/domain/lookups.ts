import { DomainError, type FieldError } from '../../../domain/errors';
import type { CorridorTerms } from './pricing/corridors';
import { computeFees, convertDown, minorRate, type FeeSchedule } from './pricing/quote-math';
import { rationalToNumber, type Rational } from './pricing/rates';

/**
 * Receiver lookups (GET /receiver/external-account/{accountId}, GET /receiver/uma/{address}):
 * what a sender may send to a receiver, and what the receiver needs to know about the payer. A
 * lookup is recorded so that a later quote can name it (`lookupId`); these are its pure rules.
 */

/** A lookup may be named by quotes for 10 minutes (longer than any quote holds its rate). */
export const LOOKUP_LIFETIME_SECONDS = 600;

export type LookupKind = 'EXTERNAL_ACCOUNT' | 'UMA_ADDRESS';

/** The reference's CustomerInfoFieldName, in its order (the order requiredPayerDataFields are listed in). */
export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const;
export type CustomerInfoFieldName = (typeof CUSTOMER_INFO_FIELD_NAMES)[number];

export interface PayerField {
  name: CustomerInfoFieldName;
  mandatory: boolean;
}

/** UMA addresses are compared without regard to case (customers hold them unique by lower case). */
export function normalizeUmaAddress(address: string): string {
  return address.toLowerCase();
}

const isFieldName = (name: string): name is CustomerInfoFieldName => (CUSTOMER_INFO_FIELD_NAMES as readonly string[]).includes(name);

/**
 * What the receiver needs about the payer, for the corridors a lookup lists:
 *  - FULL_NAME on a cross-border corridor (the sending and receiving currencies differ);
 *  - FULL_NAME, BIRTH_DATE and NATIONALITY on every corridor when the platform must exchange
 *    counterparty information (`counterpartyInformationRequired`, the travel rule);
 *  - whatever the receiver itself asks for (`receiverFields`: for one of the platform's own UMA
 *    customers, the platform's `requiredCounterpartyFields` of the receiving currencies).
 * A field any listed corridor or the receiver makes mandatory is mandatory; names outside
 * CustomerInfoFieldName are ignored. Listed in the reference's order.
 */
export function requiredPayerDataFields(input: {
  corridors: readonly { from: string; to: string }[];
  counterpartyInformationRequired: boolean;
  receiverFields?: readonly { name: string; mandatory: boolean }[];
}): PayerField[] {
  const wanted = new Map<CustomerInfoFieldName, boolean>();
  const want = (name: CustomerInfoFieldName, mandatory: boolean) => wanted.set(name, (wanted.get(name) ?? false) || mandatory);
  if (input.corridors.some((c) => c.from !== c.to)) want('FULL_NAME', true);
  if (input.counterpartyInformationRequired && input.corridors.length > 0) {
    for (const name of ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY'] as const) want(name, true);
  }
  for (const field of input.receiverFields ?? []) if (isFieldName(field.name)) want(field.name, field.mandatory);
  return CUSTOMER_INFO_FIELD_NAMES.filter((name) => wanted.has(name)).map((name) => ({ name, mandatory: wanted.get(name)! }));
}

export interface CorridorPreference {
  /** Receiving major units per sending major unit, spread included (a float for display). */
  estimatedExchangeRate: number;
  /** The least a quote on this corridor can deliver, receiving minor units (at least 1). */
  min: bigint;
  /** The most one quote can deliver, receiving minor units. */
  max: bigint;
}

/**
 * A corridor's CurrencyPreference: the corridor's sending limits turned into what reaches the
 * receiver, by the quotes' own rules (fees, service and platform, come off the sending amount;
 * the rest is converted and rounded down). Undefined when even the largest quote delivers nothing.
 */
export function corridorPreference(input: {
  terms: CorridorTerms;
  platformFee: FeeSchedule;
  /** Receiving major units per sending major unit, spread included. */
  rate: Rational;
  sendingDecimals: number;
  receivingDecimals: number;
}): CorridorPreference | undefined {
  const k = minorRate(input.rate, input.sendingDecimals, input.receivingDecimals);
  const delivered = (sending: bigint) => {
    const net = sending - computeFees(sending, input.terms.serviceFee, input.platformFee).total;
    return net > 0n ? convertDown(net, k) : 0n;
  };
  const max = delivered(input.terms.maxSendingMinor);
  if (max <= 0n) return undefined;
  const min = delivered(input.terms.minSendingMinor);
  return { estimatedExchangeRate: rationalToNumber(input.rate), min: min > 0n ? min : 1n, max };
}

/** What assertLookupUsable reads of a stored lookup (the Lookup entity has these). */
export interface LookupRecord {
  id: string;
  platformId: string;
  kind: LookupKind;
  /** The external account id, or the UMA address in lower case. */
  target: string;
  receivingCurrencies: string[];
  expiresAt: Date;
}

export type LookupDestination = { destinationType: 'ACCOUNT'; accountId: string } | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency?: string };

const refusal = (error: FieldError) => DomainError.invalidInput([error]);

/**
 * A quote's `lookupId` against the quote: the lookup must exist on the caller's platform, be
 * unexpired at `now`, and be a lookup of the quote's destination (the same external account, or
 * the same UMA address in any case); a UMA destination's `currency`, when given, must be one the
 * lookup found. Refusals are `400 INVALID_INPUT` naming `lookupId` (constraints `exists`,
 * `notExpired`, `matchesDestination`) or `destination.currency` (`enum`). Another platform's
 * lookup is reported exactly like a missing one.
 */
export function assertLookupUsable(
  lookup: LookupRecord | null | undefined,
  context: { platformId: string; destination: LookupDestination; now: Date },
): asserts lookup is LookupRecord {
  if (!lookup || lookup.platformId !== context.platformId) {
    throw refusal({ field: 'lookupId', constraint: 'exists', message: 'no such lookup; look the receiver up first' });
  }
  if (context.now.getTime() >= lookup.expiresAt.getTime()) {
    throw refusal({
      field: 'lookupId',
      constraint: 'notExpired',
      message: `the lookup expired at ${lookup.expiresAt.toISOString()}; look the receiver up again`,
    });
  }
  const d = context.destination;
  const matches =
    d.destinationType === 'ACCOUNT'
      ? lookup.kind === 'EXTERNAL_ACCOUNT' && lookup.target === d.accountId
      : lookup.kind === 'UMA_ADDRESS' && lookup.target === normalizeUmaAddress(d.umaAddress);
  if (!matches) {
    throw refusal({ field: 'lookupId', constraint: 'matchesDestination', message: `the lookup is of ${lookup.target}, not of this quote's destination` });
  }
  if (d.destinationType === 'UMA_ADDRESS' && d.currency !== undefined && !lookup.receivingCurrencies.includes(d.currency)) {
    throw refusal({
      field: 'destination.currency',
      constraint: 'enum',
      message: `the receiver takes ${lookup.receivingCurrencies.join(', ')}`,
      hint: { enum: [...lookup.receivingCurrencies] },
    });
  }
}
