import { DomainError, type FieldError } from '../../../domain/errors';
import type { Environment } from '../../platforms';
import { primaryIdentifier, type AccountInfo } from './account-identity';
import { accountTypeSpec, type AccountTypeSpec } from './account-types';
import type { BankValidationStatus, ExternalAccountStatus, OwnershipType } from './account-status';
import { addBankingDays } from './banking-days';
import { sandboxNameCheck, verifiedNameFor, type BeneficiaryVerificationStatus } from './sandbox-scenarios';

/** The US micro-entry return window in production, in banking days. */
export const BANK_VALIDATION_BANKING_DAYS = 3;
/** The same window in the sandbox, in seconds, so an integration sees it end while it waits. */
export const SANDBOX_BANK_VALIDATION_SECONDS = 10;
/** How long a sandbox name check answered PENDING (suffix 104) takes to resolve. */
export const SANDBOX_NAME_CHECK_SECONDS = 5;

export interface PlatformRules {
  region: string;
  /** Travel-rule counterparty information required (platform configuration). */
  counterpartyInformationRequired: boolean;
}

export interface Registration {
  status: ExternalAccountStatus;
  beneficiaryVerificationStatus: BeneficiaryVerificationStatus | null;
  beneficiaryVerifiedName: string | null;
  bankValidation: BankValidationStatus | null;
  bankValidationDueAt: Date | null;
  /** Work left for the account's verification workflow; none means no workflow is started. */
  pendingWork: { nameCheckAfterSeconds?: number; bankValidationAfterSeconds?: number };
}

/** A wallet the owner holds the keys of: no custodian (VASP) named. */
export function isSelfCustodyWallet(spec: AccountTypeSpec | undefined, info: AccountInfo): boolean {
  return spec?.kind === 'WALLET' && typeof info.vaspName !== 'string';
}

/** Whether the account must prove who controls it before it is ACTIVE (spec §3). */
export function needsOwnershipVerification(
  spec: AccountTypeSpec | undefined,
  info: AccountInfo,
  ownershipType: OwnershipType | null | undefined,
  platform: PlatformRules,
): boolean {
  return isSelfCustodyWallet(spec, info) && ownershipType === 'FIRST_PARTY' && platform.counterpartyInformationRequired;
}

/** Field problems that depend on the platform's rules (the schema cannot see them). */
export function counterpartyProblems(info: AccountInfo, ownershipType: OwnershipType | undefined, platform: PlatformRules): FieldError[] {
  const spec = accountTypeSpec(info.accountType);
  if (!platform.counterpartyInformationRequired || !isSelfCustodyWallet(spec, info)) return [];
  if (!ownershipType) {
    return [
      {
        field: 'ownershipType',
        constraint: 'required',
        message: 'ownershipType is required for self-custody wallets on platforms subject to counterparty rules',
      },
    ];
  }
  if (ownershipType === 'THIRD_PARTY' && info.beneficiary === undefined) {
    return [
      {
        field: 'accountInfo.beneficiary',
        constraint: 'required',
        message: 'a THIRD_PARTY self-custody wallet needs its beneficiary on platforms subject to counterparty rules',
      },
    ];
  }
  return [];
}

function beneficiaryName(info: AccountInfo): string {
  const beneficiary = info.beneficiary as { fullName?: string; legalName?: string } | undefined;
  return beneficiary?.fullName ?? beneficiary?.legalName ?? '';
}

/**
 * How a new account starts: its name check (fiat rails; the sandbox answers by suffix, production
 * has no name-check provider connected: UNSUPPORTED, or CHECKED_BY_RECEIVING_FI on US rails where
 * the receiving bank checks), US bank validation, and the ownership rule. An identifier the
 * sandbox rail calls invalid (suffix 105) is refused here, before anything is stored.
 */
export function register(input: {
  info: AccountInfo;
  ownershipType?: OwnershipType | null;
  environment: Environment;
  platform: PlatformRules;
  now: Date;
}): Registration {
  const spec = accountTypeSpec(input.info.accountType);
  let nameCheck: BeneficiaryVerificationStatus | null = null;
  if (spec?.kind === 'FIAT') {
    if (input.environment === 'SANDBOX') {
      const answer = sandboxNameCheck(primaryIdentifier(input.info));
      if (answer === 'INVALID_ACCOUNT') {
        const field =
          (['iban', 'clabeNumber', 'pixKey', 'vpa', 'accountNumber', 'phoneNumber'] as const).find((f) => typeof input.info[f] === 'string') ?? 'accountNumber';
        throw new DomainError('INVALID_BANK_ACCOUNT', 'The receiving bank reports that this account does not exist or cannot receive payments', {
          errors: [{ field: `accountInfo.${field}`, constraint: 'accountExists', message: 'the receiving institution rejected this account' }],
        });
      }
      nameCheck = answer;
    } else {
      nameCheck = input.info.accountType === 'USD_ACCOUNT' ? 'CHECKED_BY_RECEIVING_FI' : 'UNSUPPORTED';
    }
  }
  const usBank = input.info.accountType === 'USD_ACCOUNT';
  const sandbox = input.environment === 'SANDBOX';
  const validationDueAt = sandbox
    ? new Date(input.now.getTime() + SANDBOX_BANK_VALIDATION_SECONDS * 1000)
    : addBankingDays(input.now, BANK_VALIDATION_BANKING_DAYS);
  const ownership = needsOwnershipVerification(spec, input.info, input.ownershipType, input.platform);
  const status: ExternalAccountStatus = ownership ? 'PENDING_OWNERSHIP_VERIFICATION' : nameCheck === 'PENDING' || usBank ? 'PENDING' : 'ACTIVE';
  const verifiedName = nameCheck ? verifiedNameFor(nameCheck, beneficiaryName(input.info)) : undefined;
  return {
    status,
    beneficiaryVerificationStatus: nameCheck,
    beneficiaryVerifiedName: verifiedName ?? null,
    bankValidation: usBank ? 'PENDING' : null,
    bankValidationDueAt: usBank ? validationDueAt : null,
    pendingWork: {
      ...(nameCheck === 'PENDING' ? { nameCheckAfterSeconds: SANDBOX_NAME_CHECK_SECONDS } : {}),
      ...(usBank ? { bankValidationAfterSeconds: Math.ceil((validationDueAt.getTime() - input.now.getTime()) / 1000) } : {}),
    },
  };
}
