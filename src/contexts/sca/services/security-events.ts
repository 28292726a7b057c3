import type { EntityManager } from '@mikro-orm/postgresql';
import { isLocked, type LockoutState } from '../domain/lockout';
import { accountLocked, clearFailedAttempts, lockoutOf, recordFailedAttempt } from './lockout';
import { loadScaCustomer } from './sca-customers';
import { revokeScaSessions } from './sessions';

export type SecurityEventType = 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT';

/**
 * Records a security event the platform reports. FAILED_LOGIN_ATTEMPT climbs the lockout ladder
 * (refused with 423 while the customer is already locked out: nothing more is counted then).
 * RESET_PASSWORD_COMPLETED revokes every SCA session of the customer and clears the count.
 */
export async function recordSecurityEvent(
  em: EntityManager,
  target: { platformId: string; customerId: string; eventType: SecurityEventType },
): Promise<LockoutState & { eventType: SecurityEventType }> {
  return em.transactional(async (tx) => {
    const { customer } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    const now = new Date();
    if (target.eventType === 'RESET_PASSWORD_COMPLETED') {
      await revokeScaSessions(tx, target.platformId, customer.id, now);
      return { eventType: target.eventType, ...(await clearFailedAttempts(tx, target.platformId, customer.id, now)) };
    }
    const current = await lockoutOf(tx, target.platformId, customer.id, now);
    if (isLocked(current, now)) throw accountLocked(current);
    return { eventType: target.eventType, ...(await recordFailedAttempt(tx, target.platformId, customer.id, now)) };
  });
}
