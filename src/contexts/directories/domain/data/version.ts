/**
 * The version of the directory data in this folder (institutions, mobile-money providers, VASPs,
 * UMA providers). Raise it with every change to the data. Canonical names (`bankName`,
 * `provider`, `vaspName`) are identifiers clients store on their accounts: an entry may be added,
 * its display name corrected or the entry retired, but a canonical name is never renamed.
 */
export const DIRECTORY_DATA_VERSION = '2026-11-23';
