// Shared by every context whose sandbox simulates outcomes by account (external accounts, payouts and pulls, stablecoin providers).

/**
 * The sandbox's scenario suffixes (spec §8): the last three characters of an account's primary
 * identifier pick what the simulated rails do. For identifiers with a domain part (an email-style
 * PIX key, a UPI id, a Lightning address) the digits end the user name. Base58 cannot spell 0, so
 * `11x` stands for `00x` (112 = 002 … 118 = 008); both spellings work on every account.
 */
export function scenarioSuffix(identifier: string): string {
  const at = identifier.lastIndexOf('@');
  const local = at > 0 ? identifier.slice(0, at) : identifier;
  const suffix = local.slice(-3);
  if (!/^[0-9]{3}$/.test(suffix)) return '';
  return /^11[2-8]$/.test(suffix) ? `00${suffix[2]}` : suffix;
}
