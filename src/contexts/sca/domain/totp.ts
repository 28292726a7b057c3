import { generateSecret, generateURI, verifySync } from 'otplib';

/** RFC 6238 defaults (what every authenticator app uses): SHA-1, six digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side, for the clock of the customer's phone. */
const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

/** A new shared secret (160 random bits, base32). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://` provisioning URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return generateURI({ issuer, label, secret });
}

export type TotpCheck = { valid: true; timeStep: number } | { valid: false; reused: boolean };

/**
 * Checks a code against the secret at `now`. A code of a time step already used (`lastUsedStep`)
 * is refused as reused, so a code seen once (over a shoulder, in a log) is worth nothing after.
 */
export function checkTotp(secret: string, code: string, lastUsedStep: number | null | undefined, now: Date): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { valid: false, reused: false };
  const epoch = Math.floor(now.getTime() / 1000);
  const fresh = verifySync({
    secret,
    token: code,
    epoch,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(lastUsedStep != null ? { afterTimeStep: lastUsedStep } : {}),
  });
  // The TOTP result carries the matched step; the union type of otplib's facade hides it.
  if (fresh.valid) return { valid: true, timeStep: (fresh as { timeStep?: number }).timeStep ?? Math.floor(epoch / TOTP_PERIOD_SECONDS) + fresh.delta };
  if (lastUsedStep == null) return { valid: false, reused: false };
  // Right digits of a step already used: say so (the customer waits for the next code).
  const any = verifySync({ secret, token: code, epoch, epochTolerance: TOTP_TOLERANCE_SECONDS });
  return { valid: false, reused: any.valid };
}
