import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { applyContactVerificationRules } from '../../customers';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { ScaFactorType } from '../domain/factors';
import { RESET_RATE_WINDOW_MS, RESET_WINDOW_MS, resetRetryAfterSeconds, resetStatusAt } from '../domain/factor-resets';
import { ScaFactor, ScaFactorReset } from '../entities';
import type { ScaResetStatus } from '../entities/ScaFactorReset';
import { loadScaCustomer } from './sca-customers';

interface Target {
  platformId: string;
  customerId: string;
}

export interface ResetStart {
  resetId: string;
  livenessAccessToken: string;
  expiresAt: string;
}

/**
 * Starts a liveness-gated reset of a lost factor. TOTP and PASSKEY must be enrolled (400 on
 * `factor`), SMS_OTP needs a phone on file. At most MAX_RESETS_PER_DAY starts per customer in
 * 24 hours: 429 RATE_LIMITED with `retryAfterSeconds`. Production: no liveness provider ships with
 * the service, so the start is 501 NOT_IMPLEMENTED and stores nothing; the sandbox simulates it.
 */
export async function startFactorReset(em: EntityManager, target: Target & { factor: ScaFactorType; environment: Environment }): Promise<ResetStart> {
  if (target.environment !== 'SANDBOX') {
    throw new DomainError('NOT_IMPLEMENTED', 'No liveness-check provider is configured on this server for factor resets', { liveness: 'NOT_CONFIGURED' });
  }
  return em.transactional(async (tx) => {
    const { customer } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    const held =
      target.factor === 'SMS_OTP'
        ? !!customer.phoneNumber
        : (await tx.count(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: target.factor, status: 'ACTIVE' })) > 0;
    if (!held) {
      throw DomainError.invalidInput(
        [{ field: 'factor', constraint: 'not_enrolled', message: `the customer has no ${target.factor} factor to reset` }],
        'The factor to reset is not enrolled',
      );
    }
    const now = new Date();
    const recent = await tx.find(
      ScaFactorReset,
      { platformId: target.platformId, customerId: customer.id, createdAt: { $gt: new Date(now.getTime() - RESET_RATE_WINDOW_MS) } },
      { orderBy: { createdAt: 'asc' }, fields: ['createdAt'] },
    );
    const retryAfterSeconds = resetRetryAfterSeconds(
      recent.map((r) => r.createdAt),
      now,
    );
    if (retryAfterSeconds > 0) {
      throw new DomainError('RATE_LIMITED', `Too many factor resets for this customer (5 per 24 hours); retry after ${retryAfterSeconds} s`, {
        retryAfterSeconds,
      });
    }
    const reset = tx.create(ScaFactorReset, {
      id: newId('ScaReset'),
      platformId: target.platformId,
      customerId: customer.id,
      factor: target.factor,
      status: 'INITIATED',
      expiresAt: new Date(now.getTime() + RESET_WINDOW_MS),
      completedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    // The handle a liveness SDK would take; the sandbox's check needs none, so it is not kept.
    return { resetId: reset.id, livenessAccessToken: `sandbox_liveness_${randomBytes(16).toString('base64url')}`, expiresAt: reset.expiresAt.toISOString() };
  });
}

export interface ResetStatusView {
  status: ScaResetStatus;
  factor: ScaFactorType;
  enrollmentStatus: 'PENDING' | 'COMPLETED' | null;
  expiresAt: string;
  completedAt: string | null;
}

async function findReset(em: EntityManager, target: Target & { resetId: string }): Promise<ScaFactorReset> {
  const { customer } = await loadScaCustomer(em, target.platformId, target.customerId);
  const reset = await em.findOne(ScaFactorReset, { id: target.resetId, platformId: target.platformId, customerId: customer.id });
  if (!reset) throw new DomainError('NOT_FOUND', 'Factor reset not found');
  return reset;
}

/** The reset as the reference shows it; `enrollmentStatus` follows the replacement factor (null for SMS_OTP). */
export async function factorResetStatus(em: EntityManager, target: Target & { resetId: string }): Promise<ResetStatusView> {
  const reset = await findReset(em, target);
  const now = new Date();
  let enrollmentStatus: ResetStatusView['enrollmentStatus'] = null;
  if (reset.factor !== 'SMS_OTP') {
    const replaced =
      reset.completedAt &&
      (await em.count(ScaFactor, {
        platformId: reset.platformId,
        customerId: reset.customerId,
        type: reset.factor,
        status: 'ACTIVE',
        activatedAt: { $gt: reset.completedAt },
      }));
    enrollmentStatus = replaced ? 'COMPLETED' : 'PENDING';
  }
  return {
    status: resetStatusAt(reset, now),
    factor: reset.factor,
    enrollmentStatus,
    expiresAt: reset.expiresAt.toISOString(),
    completedAt: reset.completedAt?.toISOString() ?? null,
  };
}

/**
 * Completes a reset whose liveness check passed (else 400): TOTP and PASSKEY are removed so the
 * customer can enrol again; SMS_OTP takes the new mobile number, which must then be verified
 * (POST /customers/{id}/verify-phone) before SMS codes go to it.
 */
export async function completeFactorReset(
  em: EntityManager,
  target: Target & { resetId: string; mobile?: { countryCode: string; number: string } | undefined },
): Promise<void> {
  await em.transactional(async (tx) => {
    const { customer, platform } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    const reset = await findReset(tx, target);
    const now = new Date();
    const status = resetStatusAt(reset, now);
    if (status !== 'LIVENESS_PASSED') {
      throw DomainError.invalidInput(
        [
          {
            field: 'resetId',
            constraint: 'not_ready',
            message: `the reset is ${status}; it can be completed once its liveness check has passed (LIVENESS_PASSED)`,
          },
        ],
        'The reset is not ready to complete',
      );
    }
    if (reset.factor === 'SMS_OTP') {
      if (!target.mobile) {
        throw DomainError.invalidInput([{ field: 'mobile', constraint: 'required', message: 'an SMS_OTP reset needs the new mobile number' }]);
      }
      customer.phoneNumber = `${target.mobile.countryCode}${target.mobile.number}`;
      customer.updatedAt = now;
      await applyContactVerificationRules(tx, platform, customer, { changed: ['phone'] });
    } else {
      await tx.nativeDelete(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: reset.factor });
    }
    reset.status = 'COMPLETED';
    reset.completedAt = now;
    reset.updatedAt = now;
    await tx.flush();
  });
}
