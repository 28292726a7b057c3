/**
 * The outcome of checking one account identifier against its rail's format. `normalized` is the
 * identifier in the form the rail itself uses (for example an IBAN in upper case without spaces,
 * an EVM address in its EIP-55 checksum form); it is what the service stores and returns.
 */
export type IdentifierCheck = { valid: true; normalized: string } | { valid: false; reason: string };

export const accepted = (normalized: string): IdentifierCheck => ({ valid: true, normalized });
export const refused = (reason: string): IdentifierCheck => ({ valid: false, reason });
