import type { ExternalAccountVerificationInput } from '../../../../workflows/external-accounts/definitions';
import type { ExternalAccount } from '../entities';

/** The verification workflow's input for an account, with the checks its registration left pending. */
export function verificationInput(
  account: ExternalAccount,
  pending: Pick<ExternalAccountVerificationInput, 'nameCheckAfterSeconds' | 'bankValidationAfterSeconds'> = {},
): ExternalAccountVerificationInput {
  return {
    externalAccountId: account.id,
    platformId: account.platformId,
    customerId: account.customerId ?? null,
    environment: account.environment,
    ...pending,
  };
}
