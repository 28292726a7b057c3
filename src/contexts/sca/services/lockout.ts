import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DomainError } from '../../../domain/errors';
import { scaProofError } from '../domain/proof-verdicts';
import { afterFailedAttempt, isLocked, lockoutView, NO_LOCKOUT, type LockoutState } from '../domain/lockout';
import { ScaSecurityState } from '../entities';

async function stateRow(em: EntityManager, platformId: string, customerId: string): Promise<ScaSecurityState | null> {
  return em.findOne(ScaSecurityState, { customerId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

function stateOf(row: ScaSecurityState | null): LockoutState {
  return row ? { failedAttempts: row.failedAttempts, suspended: row.suspended, lockedUntil: row.lockedUntil ?? null } : NO_LOCKOUT;
}

/** The customer's lockout as the reference shows it. Runs in the caller's transaction. */
export async function lockoutOf(em: EntityManager, platformId: string, customerId: string, now: Date): Promise<LockoutState> {
  return lockoutView(stateOf(await em.findOne(ScaSecurityState, { customerId, platformId })), now);
}

/** 423 ACCOUNT_LOCKED, with the reference's details (`suspended`, `lockedUntil`, `failedAttempts`). */
export function accountLocked(state: LockoutState): DomainError {
  return scaProofError({ valid: false, failure: 'LOCKED', lockout: state });
}

/** Refuses with 423 while the customer is locked out. Runs in the caller's transaction. */
export async function assertNotLocked(em: EntityManager, platformId: string, customerId: string, now: Date): Promise<void> {
  const state = await lockoutOf(em, platformId, customerId, now);
  if (isLocked(state, now)) throw accountLocked(state);
}

/** Counts one failed attempt (a wrong proof, or one the platform reports) and climbs the ladder. */
export async function recordFailedAttempt(em: EntityManager, platformId: string, customerId: string, now: Date): Promise<LockoutState> {
  const row = await stateRow(em, platformId, customerId);
  const next = afterFailedAttempt(stateOf(row), now);
  if (row) {
    Object.assign(row, { failedAttempts: next.failedAttempts, suspended: next.suspended, lockedUntil: next.lockedUntil, updatedAt: now });
  } else {
    em.create(ScaSecurityState, {
      customerId,
      platformId,
      failedAttempts: next.failedAttempts,
      suspended: next.suspended,
      lockedUntil: next.lockedUntil,
      updatedAt: now,
    });
  }
  await em.flush();
  return lockoutView(next, now);
}

/** Clears the count and any lock (a completed password reset). */
export async function clearFailedAttempts(em: EntityManager, platformId: string, customerId: string, now: Date): Promise<LockoutState> {
  const row = await stateRow(em, platformId, customerId);
  if (row) Object.assign(row, { failedAttempts: 0, suspended: false, lockedUntil: null, updatedAt: now });
  await em.flush();
  return NO_LOCKOUT;
}
