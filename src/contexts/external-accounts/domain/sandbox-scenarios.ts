import { scenarioSuffix } from '../../../domain/sandbox-scenarios';

export { scenarioSuffix };

export type BeneficiaryVerificationStatus = 'MATCHED' | 'PARTIAL_MATCH' | 'NOT_MATCHED' | 'UNSUPPORTED' | 'CHECKED_BY_RECEIVING_FI' | 'PENDING';

/** What the sandbox name check answers for an identifier; `INVALID_ACCOUNT` refuses the account (400). */
export function sandboxNameCheck(identifier: string): BeneficiaryVerificationStatus | 'INVALID_ACCOUNT' {
  switch (scenarioSuffix(identifier)) {
    case '102':
      return 'NOT_MATCHED';
    case '103':
      return 'PARTIAL_MATCH';
    case '104':
      return 'PENDING';
    case '105':
      return 'INVALID_ACCOUNT';
    case '106':
      return 'UNSUPPORTED';
    case '107':
      return 'CHECKED_BY_RECEIVING_FI';
    default:
      return 'MATCHED';
  }
}

/**
 * The sandbox's US bank validation: an account number ending in 110 has its micro-entry returned
 * (the validation fails and the account can no longer be used); every other account passes.
 */
export const FAILING_BANK_VALIDATION_SUFFIX = '110';

export function sandboxBankValidationPasses(accountNumber: string): boolean {
  return !accountNumber.endsWith(FAILING_BANK_VALIDATION_SUFFIX);
}

/**
 * The name as a name-check service gives it back: banks return the holder name they keep, which
 * for a partial match differs from the one the platform sent (here: given names reduced to
 * initials). No name is returned when the check found none or did not run.
 */
export function verifiedNameFor(status: BeneficiaryVerificationStatus, registeredName: string): string | undefined {
  const name = registeredName.trim().replace(/\s+/g, ' ');
  if (status === 'MATCHED') return name.toUpperCase();
  if (status === 'PARTIAL_MATCH') {
    const words = name.split(' ');
    if (words.length < 2) return `${name.toUpperCase()} LTD`;
    return [...words.slice(0, -1).map((w) => `${w[0]}.`), words[words.length - 1]].join(' ').toUpperCase();
  }
  return undefined;
}
