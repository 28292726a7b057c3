import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { ScaFactorType } from '../domain/factors';
import { ScaSession } from '../entities';

/** How long an SCA login lasts (the reference's changelog: about 180 days). */
export const SCA_SESSION_TTL_MS = 180 * 24 * 60 * 60 * 1000;

export async function openScaSession(
  em: EntityManager,
  input: { platformId: string; customerId: string; factor: ScaFactorType; endUserIpAddress: string; now: Date },
): Promise<ScaSession> {
  const session = em.create(ScaSession, {
    id: newId('ScaSession'),
    platformId: input.platformId,
    customerId: input.customerId,
    factor: input.factor,
    endUserIpAddress: input.endUserIpAddress,
    expiresAt: new Date(input.now.getTime() + SCA_SESSION_TTL_MS),
    revokedAt: null,
    createdAt: input.now,
  });
  await em.flush();
  return session;
}

/** The customer's live SCA session (not revoked, not expired) that lasts longest, if any. */
export async function liveScaSession(em: EntityManager, platformId: string, customerId: string, now: Date = new Date()): Promise<ScaSession | null> {
  return em.findOne(ScaSession, { platformId, customerId, revokedAt: null, expiresAt: { $gt: now } }, { orderBy: { expiresAt: 'desc' } });
}

/**
 * For the operations that need a logged-in customer: 409 SCA_SESSION_REQUIRED when the customer
 * has no live SCA session (never logged in, expired, or revoked by a password reset).
 */
export async function requireScaSession(em: EntityManager, input: { platformId: string; customerId: string; now?: Date }): Promise<ScaSession> {
  const session = await liveScaSession(em, input.platformId, input.customerId, input.now ?? new Date());
  if (!session) {
    throw new DomainError(
      'SCA_SESSION_REQUIRED',
      'The customer has no live SCA session (none opened, expired, or revoked): log the customer in with POST /sca/login/start and /sca/login/complete',
    );
  }
  return session;
}

/** Ends every live session of the customer (RESET_PASSWORD_COMPLETED). */
export async function revokeScaSessions(em: EntityManager, platformId: string, customerId: string, now: Date): Promise<number> {
  return em.nativeUpdate(ScaSession, { platformId, customerId, revokedAt: null, expiresAt: { $gt: now } }, { revokedAt: now });
}
