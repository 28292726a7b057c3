/**
 * The failed-login lockout ladder (reference RecordSecurityEventRequest): 5 failed attempts lock
 * the customer out for 15 minutes, 6 for 30, 7 for an hour, 8 for a day, 9 or more suspend it
 * until a password reset (RESET_PASSWORD_COMPLETED) clears the count.
 */
const MINUTE = 60 * 1000;
const LADDER: Record<number, number> = { 5: 15 * MINUTE, 6: 30 * MINUTE, 7: 60 * MINUTE, 8: 24 * 60 * MINUTE };
export const SUSPENSION_AT = 9;

export interface LockoutState {
  failedAttempts: number;
  suspended: boolean;
  lockedUntil: Date | null;
}

export const NO_LOCKOUT: LockoutState = { failedAttempts: 0, suspended: false, lockedUntil: null };

/** The state after one more failed attempt at `now`. */
export function afterFailedAttempt(state: LockoutState, now: Date): LockoutState {
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts >= SUSPENSION_AT) return { failedAttempts, suspended: true, lockedUntil: null };
  const lock = LADDER[failedAttempts];
  return { failedAttempts, suspended: false, lockedUntil: lock ? new Date(now.getTime() + lock) : state.lockedUntil };
}

/** Whether the customer may not authenticate at `now`. */
export function isLocked(state: LockoutState, now: Date): boolean {
  return state.suspended || (!!state.lockedUntil && state.lockedUntil.getTime() > now.getTime());
}

/** The state as the reference shows it: an elapsed lock is no lock. */
export function lockoutView(state: LockoutState, now: Date): LockoutState {
  return { failedAttempts: state.failedAttempts, suspended: state.suspended, lockedUntil: !state.suspended && isLocked(state, now) ? state.lockedUntil : null };
}
