/** A P-256 public key as the reference accepts it: compressed (02/03 + 64 hex) or uncompressed (04 + 128 hex). */
export const CLIENT_PUBLIC_KEY_PATTERN = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
/** The key a session signs with: compressed SEC1, the client-held-key model. */
export const COMPRESSED_PUBLIC_KEY_PATTERN = /^0[23][0-9a-fA-F]{64}$/;

export function isCompressedPublicKey(value: unknown): value is string {
  return typeof value === 'string' && COMPRESSED_PUBLIC_KEY_PATTERN.test(value);
}

/** Keys are compared in one spelling: lowercase hex. */
export function normalizeKeyHex(hex: string): string {
  return hex.toLowerCase();
}
