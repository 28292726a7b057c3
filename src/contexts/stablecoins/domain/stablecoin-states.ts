import { DomainError } from '../../../domain/errors';

/** The public enums of stablecoins (the reference's), and the rules of the states they name. */
export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export type StablecoinProvider = (typeof STABLECOIN_PROVIDERS)[number];
/** The only provider the reference names: every link, coin and operation is its (an operation's is its coin's). */
export const ONLY_PROVIDER: StablecoinProvider = 'BRALE';
export const STABLECOIN_NETWORKS = ['SPARK'] as const;
export type StablecoinNetwork = (typeof STABLECOIN_NETWORKS)[number];
export const PROVIDER_ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;
export type ProviderEnvironment = (typeof PROVIDER_ENVIRONMENTS)[number];
export const PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];
export const ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type IssuanceStatus = (typeof ISSUANCE_STATUSES)[number];
export const GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
export type GridOperationsStatus = (typeof GRID_OPERATIONS_STATUSES)[number];

/**
 * Spec §3, stablecoin grid enablement: the platform may ask only from NOT_ENABLED (asking again
 * while PENDING_APPROVAL is answered as success, nothing changes); every other state is the
 * operator's to set. Returns whether the request changed anything.
 */
export function requestGridEnablement(current: GridOperationsStatus): { next: GridOperationsStatus; changed: boolean } {
  if (current === 'NOT_ENABLED') return { next: 'PENDING_APPROVAL', changed: true };
  if (current === 'PENDING_APPROVAL') return { next: current, changed: false };
  throw new DomainError(
    'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE',
    `Grid operations are ${current}; that state is set by the operator and enablement cannot be requested from it`,
  );
}

/**
 * The operator's moves (src/cli/stablecoin-operator.ts): approve a request (ENABLING) or decline
 * it (back to NOT_ENABLED); finish enabling (ENABLED) or abandon it; disable an enabled coin and
 * enable it again.
 */
export const OPERATOR_GRID_MOVES: Record<GridOperationsStatus, readonly GridOperationsStatus[]> = {
  NOT_ENABLED: [],
  PENDING_APPROVAL: ['ENABLING', 'NOT_ENABLED'],
  ENABLING: ['ENABLED', 'NOT_ENABLED'],
  ENABLED: ['DISABLED'],
  DISABLED: ['ENABLED'],
};

export function operatorGridMove(current: GridOperationsStatus, next: GridOperationsStatus): GridOperationsStatus {
  if (!OPERATOR_GRID_MOVES[current].includes(next)) {
    const allowed = OPERATOR_GRID_MOVES[current];
    throw new DomainError(
      'INVALID_STATE_TRANSITION',
      `Grid operations cannot move from ${current} to ${next}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (only the platform may request enablement from NOT_ENABLED)'}`,
    );
  }
  return next;
}

/** A link's status is the operator's (or a failed provider authentication's): REVOKED is final. */
export function operatorLinkMove(current: ProviderAccountStatus, next: ProviderAccountStatus): ProviderAccountStatus {
  if (current === 'REVOKED' || current === next) throw new DomainError('INVALID_STATE_TRANSITION', `A ${current} provider account link cannot become ${next}`);
  return next;
}

/** What a link in each status allows: only ACTIVE links reach the provider. */
export function assertLinkUsable(status: ProviderAccountStatus): void {
  if (status === 'REVOKED')
    throw new DomainError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', 'The stablecoin provider account link has been revoked; link the provider account again');
  if (status === 'INVALID')
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      'The stablecoin provider account link is not usable: the provider no longer accepts its credentials; link the account again with working credentials',
    );
}

/** Issuance moves as the provider reports them. */
export const ISSUANCE_MOVES: Record<IssuanceStatus, readonly IssuanceStatus[]> = {
  PENDING_REVIEW: ['PROVISIONING', 'REJECTED'],
  PROVISIONING: ['PROVISIONED', 'FAILED'],
  PROVISIONED: [],
  REJECTED: [],
  FAILED: [],
};

export function assertProvisioned(status: IssuanceStatus): void {
  if (status !== 'PROVISIONED')
    throw new DomainError('STABLECOIN_NOT_PROVISIONED', `The stablecoin's issuance is ${status}; mints, burns and grid enablement need it PROVISIONED`);
}
