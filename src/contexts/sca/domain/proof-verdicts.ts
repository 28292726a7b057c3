import { DomainError, type FieldError } from '../../../domain/errors';
import type { LockoutState } from './lockout';
import { MAX_CHALLENGE_ATTEMPTS } from './one-time-codes';

/** Why a proof was refused. None of them says what the right proof would have been. */
export type ProofFailure =
  | 'WRONG_PROOF'
  | 'REUSED'
  | 'EXPIRED'
  | 'NOT_ISSUED'
  | 'ATTEMPTS_EXCEEDED'
  | 'FACTOR_NOT_ENROLLED'
  | 'FACTOR_NOT_ALLOWED'
  | 'MISSING_PROOF'
  | 'MISSING_CHALLENGE'
  | 'LOCKED';

export type ScaProofVerdict<T = undefined> =
  | { valid: true; result: T }
  | { valid: false; failure: Exclude<ProofFailure, 'LOCKED'>; field: string; detail?: string; attemptsLeft?: number }
  | { valid: false; failure: 'LOCKED'; lockout: LockoutState };

const REASONS: Record<Exclude<ProofFailure, 'LOCKED'>, { reason: string; constraint: string; message: string }> = {
  WRONG_PROOF: { reason: 'The SCA proof is not correct', constraint: 'invalid', message: 'the proof is not correct' },
  REUSED: { reason: 'The SCA code was already used', constraint: 'reused', message: 'this code was already used; wait for the next one' },
  EXPIRED: { reason: 'The SCA challenge has expired', constraint: 'expired', message: 'the challenge has expired; start a new one' },
  NOT_ISSUED: { reason: 'No such SCA challenge is pending', constraint: 'not_requested', message: 'no pending challenge matches; start a new one' },
  ATTEMPTS_EXCEEDED: {
    reason: 'Too many wrong proofs for this SCA challenge',
    constraint: 'attempts_exceeded',
    message: `the challenge was withdrawn after ${MAX_CHALLENGE_ATTEMPTS} wrong proofs; start a new one`,
  },
  FACTOR_NOT_ENROLLED: { reason: 'The SCA factor is not enrolled', constraint: 'not_enrolled', message: 'the customer has not enrolled this factor' },
  FACTOR_NOT_ALLOWED: {
    reason: 'The SCA factor cannot authorize this',
    constraint: 'not_allowed',
    message: 'this factor cannot carry dynamic linking to what is authorized',
  },
  MISSING_PROOF: { reason: 'The SCA proof is missing', constraint: 'required', message: 'the proof for this factor is required' },
  MISSING_CHALLENGE: { reason: 'The challengeId is missing', constraint: 'required', message: 'the challengeId of the challenge being answered is required' },
};

/**
 * The refusal for a failed verdict: 423 ACCOUNT_LOCKED when the customer is locked out, else
 * 400 INVALID_INPUT naming the field (`code`, `passkeyAssertion`, `challengeId`, `factor`).
 */
export function scaProofError(verdict: Extract<ScaProofVerdict<unknown>, { valid: false }>): DomainError {
  if (verdict.failure === 'LOCKED') {
    const state = verdict.lockout;
    return new DomainError(
      'ACCOUNT_LOCKED',
      state.suspended
        ? "The customer's login is suspended after too many failed attempts; a password reset (RESET_PASSWORD_COMPLETED) lifts it"
        : "The customer's login is locked after too many failed attempts; retry after details.lockedUntil",
      { suspended: state.suspended, lockedUntil: state.lockedUntil?.toISOString() ?? null, failedAttempts: state.failedAttempts },
    );
  }
  const { reason: generic, constraint, message } = REASONS[verdict.failure];
  // A missing proof names the field that is missing (a code, the assertion, its origin), not the proof as a whole.
  const reason = verdict.failure === 'MISSING_PROOF' ? `The SCA proof is missing its ${verdict.field}` : generic;
  const left = verdict.attemptsLeft !== undefined ? `; ${verdict.attemptsLeft} attempt${verdict.attemptsLeft === 1 ? '' : 's'} left` : '';
  const error: FieldError = { field: verdict.field, constraint, message: `${verdict.detail ?? message}${left}` };
  return DomainError.invalidInput([error], reason);
}
