import { DomainError } from '../../../domain/errors';
import type { BankValidationStatus, ExternalAccountStatus } from './account-status';

/**
 * EU transfer-of-funds rules: a transfer to a self-hosted wallet above EUR 1,000 needs the
 * wallet's ownership verified first; below it the transfer may go ahead (spec §8). Amount in euro
 * cents; quotes convert the transfer amount to euros before asking.
 */
export const OWNERSHIP_VERIFICATION_THRESHOLD_EUR_CENTS = 100_000n;

export interface AccountForUse {
  status: ExternalAccountStatus;
  bankValidation?: BankValidationStatus | null;
  deletedAt?: Date | null;
}

/**
 * Whether a payment may use an external account now, raising the refusal a quote answers with:
 * a deleted account cannot take new payments; a US account inside its validation window is
 * `409 BANK_ACCOUNT_VALIDATION_PENDING`, one whose validation failed `400 INVALID_BANK_ACCOUNT`;
 * a wallet whose ownership is unproven is `400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED`, except on
 * EU-region platforms for transfers below the threshold (pass `amountEurCents`).
 */
export function assertExternalAccountUsable(
  account: AccountForUse,
  transfer: { platformRegion: string; amountEurCents?: bigint; /** Where the request named the account. */ field?: string },
): void {
  if (account.deletedAt)
    throw new DomainError('INVALID_INPUT', 'The external account was deleted and cannot be used for new payments', {
      errors: [{ field: transfer.field ?? 'destination.accountId', constraint: 'notDeleted', message: 'the account was deleted' }],
    });
  if (account.bankValidation === 'PENDING')
    throw new DomainError('BANK_ACCOUNT_VALIDATION_PENDING', 'The bank account is still being validated; try again when its validation window has ended');
  if (account.bankValidation === 'FAILED') throw new DomainError('INVALID_BANK_ACCOUNT', 'The bank account failed validation and cannot be used');
  if (account.status === 'PENDING_OWNERSHIP_VERIFICATION' || account.status === 'UNVERIFIED') {
    const belowThreshold =
      transfer.platformRegion === 'EU' && transfer.amountEurCents !== undefined && transfer.amountEurCents < OWNERSHIP_VERIFICATION_THRESHOLD_EUR_CENTS;
    if (!belowThreshold) throw new DomainError('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', "The wallet's ownership must be verified before this transfer");
  }
  if (account.status === 'INACTIVE' || account.status === 'UNDER_REVIEW')
    throw new DomainError('INVALID_BANK_ACCOUNT', `The external account is ${account.status} and cannot be used`);
}
