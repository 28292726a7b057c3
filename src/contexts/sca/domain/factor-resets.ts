import { sendRetryAfterSeconds } from '../../../domain/send-window';
import type { ScaResetStatus } from '../entities/ScaFactorReset';

/** Reset initiations allowed per customer in any 24 hours (reference: 5 per 24 h, else 429). */
export const MAX_RESETS_PER_DAY = 5;
export const RESET_RATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a reset may take from start to completion. */
export const RESET_WINDOW_MS = 30 * 60 * 1000;
/**
 * The sandbox's simulated liveness check: the end user "submits" it a second after the start
 * (PENDING_REVIEW) and it passes a second later (LIVENESS_PASSED). Nothing is sent anywhere.
 */
export const SANDBOX_LIVENESS_SUBMITTED_MS = 1000;
export const SANDBOX_LIVENESS_PASSED_MS = 2000;

const TERMINAL: readonly ScaResetStatus[] = ['COMPLETED', 'REJECTED', 'EXPIRED'];

/** A reset's status at `now`: the stored one, moved on by the simulated liveness check and by the window's end. */
export function resetStatusAt(reset: { status: ScaResetStatus; createdAt: Date; expiresAt: Date }, now: Date): ScaResetStatus {
  if (TERMINAL.includes(reset.status)) return reset.status;
  if (now.getTime() >= reset.expiresAt.getTime()) return 'EXPIRED';
  const elapsed = now.getTime() - reset.createdAt.getTime();
  if (elapsed >= SANDBOX_LIVENESS_PASSED_MS) return 'LIVENESS_PASSED';
  if (elapsed >= SANDBOX_LIVENESS_SUBMITTED_MS) return 'PENDING_REVIEW';
  return reset.status;
}

/** Whole seconds until another reset may start, given the starts of the window; 0 when one may start now. */
export function resetRetryAfterSeconds(startsInWindow: Date[], now: Date): number {
  return sendRetryAfterSeconds(startsInWindow, now, { max: MAX_RESETS_PER_DAY, windowMs: RESET_RATE_WINDOW_MS });
}
