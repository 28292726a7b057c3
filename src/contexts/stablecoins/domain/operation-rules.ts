import { DomainError } from '../../../domain/errors';
import type { GridOperationsStatus } from './stablecoin-states';

export const OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];
export const OPERATION_STATUSES = ['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
export const FINAL_OPERATION_STATUSES: readonly OperationStatus[] = ['COMPLETED', 'FAILED', 'EXPIRED'];

export const MINT_FUNDING_TYPES = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'SVC_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export const BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'SVC_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export const PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];
/** The bank network each provider payout rail travels on (an external account's paymentRails name networks). */
export const PAYOUT_RAIL_NETWORK: Record<PayoutRail, string> = { WIRE: 'WIRE', ACH_CREDIT: 'ACH', SAME_DAY_ACH_CREDIT: 'ACH', RTP_CREDIT: 'RTP' };

/** A redemption travels only on a network the bank account's rails allow (the platform may have chosen them). */
export function assertPayoutRailAllowed(accountRails: readonly string[], rail: PayoutRail): void {
  if (!accountRails.includes(PAYOUT_RAIL_NETWORK[rail])) {
    throw DomainError.invalidInput([
      {
        field: 'destination.rail',
        constraint: 'accountRails',
        message: `${rail} travels on ${PAYOUT_RAIL_NETWORK[rail]}; the bank account is paid by ${accountRails.join(', ')} only`,
      },
    ]);
  }
}

/** The source of an operation as stored and shown (the reference's merged StablecoinOperationSource). */
export interface OperationSource {
  type: (typeof MINT_FUNDING_TYPES)[number] | (typeof BURN_SOURCE_TYPES)[number];
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

export interface OperationDestination {
  accountId: string;
  rail?: PayoutRail;
}

/** Why a FAILED operation failed (`failureReason`): stable codes a platform can branch on. */
export const FAILURE_REASONS = {
  providerRejected: 'PROVIDER_REJECTED',
  providerAccountInvalid: 'PROVIDER_ACCOUNT_INVALID',
  providerAccountRevoked: 'PROVIDER_ACCOUNT_REVOKED',
  providerTransferFailed: 'PROVIDER_TRANSFER_FAILED',
} as const;

/**
 * A refusal met when the operation is submitted fails it, and the create request is answered
 * with the refusal's code; the operation keeps the reason, so a repeated request (or the
 * operation's page) tells the same story.
 */
export const SUBMISSION_REFUSALS = {
  [FAILURE_REASONS.providerRejected]: { code: 'STABLECOIN_PROVIDER_ERROR', message: 'The stablecoin provider refused the operation' },
  [FAILURE_REASONS.providerAccountInvalid]: {
    code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    message: 'The provider no longer accepts the link’s credentials; the link is INVALID',
  },
  [FAILURE_REASONS.providerAccountRevoked]: {
    code: 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
    message: 'The provider account link was revoked before the operation was submitted',
  },
} as const;
export type SubmissionRefusal = (typeof SUBMISSION_REFUSALS)[keyof typeof SUBMISSION_REFUSALS];

export function failureReasonOf(code: string): keyof typeof SUBMISSION_REFUSALS | undefined {
  return (Object.keys(SUBMISSION_REFUSALS) as (keyof typeof SUBMISSION_REFUSALS)[]).find((reason) => SUBMISSION_REFUSALS[reason].code === code);
}

/**
 * Whether the operation waits for money from outside before the provider can act: a wire-funded
 * mint waits for the issuer's wire, a burn from an external wallet for the tokens to arrive at the
 * provider's deposit address. Both wait in PENDING_FUNDING until the window ends (EXPIRED).
 */
export function awaitsFunding(type: OperationType, source: OperationSource): boolean {
  return (type === 'MINT' && source.type === 'WIRE') || (type === 'BURN' && source.type === 'EXTERNAL_ACCOUNT');
}

/**
 * The flows that move money inside the service (a Grid internal account as source or
 * destination) need the stablecoin enabled for grid operations; the reference reserves them for
 * a later version, so even then they are refused, with the code that names what is missing.
 */
export function assertGridFlow(kind: 'mintFunding' | 'mintDestination' | 'burnSource', gridStatus: GridOperationsStatus): never {
  if (gridStatus !== 'ENABLED')
    throw new DomainError(
      'STABLECOIN_GRID_OPERATIONS_NOT_ENABLED',
      `Grid internal accounts take part in stablecoin operations only once the stablecoin is enabled for grid operations (it is ${gridStatus})`,
    );
  if (kind === 'burnSource')
    throw new DomainError(
      'STABLECOIN_BURN_SOURCE_NOT_SUPPORTED',
      'Burning from a Grid internal account is not available yet; burn from an external wallet (EXTERNAL_ACCOUNT) or the provider balance',
    );
  throw new DomainError(
    'STABLECOIN_OPERATION_NOT_SUPPORTED',
    kind === 'mintFunding'
      ? 'Funding a mint from a Grid internal account is not available yet; fund it by wire, ACH debit or the provider balance'
      : 'Minting into a Grid internal account is not available yet; mint to a Spark external account',
  );
}

/**
 * A burn may take only the outstanding supply (the reserve) not already claimed by burns under
 * way; amounts in the base currency's minor unit.
 */
export function assertBurnWithinSupply(cents: bigint, reserve: bigint, claimedByOpenBurns: bigint, currency: string): void {
  const available = reserve - claimedByOpenBurns;
  if (cents > available)
    throw new DomainError(
      'INSUFFICIENT_FUNDS',
      `The burn is worth ${cents} minor units of ${currency}; the outstanding supply not already being burned is worth ${available}`,
    );
}

/** Rail guidance shown on a burn (`estimatedDelivery`): never a promise. */
export const PAYOUT_TIMING: Record<PayoutRail, string> = {
  WIRE: 'same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'same business day',
  RTP_CREDIT: 'within minutes',
};

/** The rail of the external account that carries each payout rail. */
export const PAYOUT_RAIL_NEEDS: Record<PayoutRail, string> = { WIRE: 'WIRE', ACH_CREDIT: 'ACH', SAME_DAY_ACH_CREDIT: 'ACH', RTP_CREDIT: 'RTP' };

/**
 * The ledger side, per stablecoin and in its base currency's minor unit: RESERVE is the fiat the
 * provider holds behind the token, SUPPLY (negative) what is outstanding. A completed mint raises
 * both, a completed burn lowers both, so RESERVE + SUPPLY = 0 always and a burn can never take out
 * more than was minted.
 */
export function operationLines(type: OperationType, reserveAccountId: string, supplyAccountId: string, currency: string, cents: bigint) {
  const sign = type === 'MINT' ? 1n : -1n;
  return [
    { accountId: reserveAccountId, currency, amount: sign * cents },
    { accountId: supplyAccountId, currency, amount: -sign * cents },
  ];
}
