/** How long a device code may be redeemed (the reference's example: a day). */
export const DEVICE_CODE_TTL_MS = 24 * 60 * 60 * 1000;

/** The code as it is hashed: typed in lower case it is the same code. */
export function normalizedDeviceCode(code: string): string {
  return code.trim().toUpperCase();
}

export function isExpired(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() <= now.getTime();
}
