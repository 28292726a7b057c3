import { ExternalAccount } from '../entities';
import { SANDBOX_NAME_CHECK_SECONDS } from '../domain/registration';
import { ofScopedPlatform, type StrandedStart } from '../../../temporal/start-stranded';
import { startExternalAccountVerification } from '../starters/external-account-verification';
import { verificationInput } from './verification-input';

/**
 * An account is registered first and its verification workflow started after the commit. If the
 * process dies in between, a PENDING name check or US validation would never end. These are the
 * checks overdue by more than the grace period; their workflow is started (id = account id, so a
 * running one is joined, never doubled) and the checks then run at once.
 */
export const strandedVerifications: StrandedStart<ExternalAccount> = {
  name: 'external account verifications',
  find: (em, scope) =>
    em.find(
      ExternalAccount,
      {
        deletedAt: null,
        ...ofScopedPlatform(scope),
        $or: [
          { bankValidation: 'PENDING', bankValidationDueAt: { $lt: scope.overdue } },
          { beneficiaryVerificationStatus: 'PENDING', createdAt: { $lt: new Date(scope.overdue.getTime() - SANDBOX_NAME_CHECK_SECONDS * 1000) } },
        ],
      },
      { orderBy: { createdAt: 'asc' }, limit: scope.limit },
    ),
  idOf: (account) => account.id,
  start: (client, account, { taskQueue }) =>
    startExternalAccountVerification(
      client,
      verificationInput(account, {
        ...(account.beneficiaryVerificationStatus === 'PENDING' ? { nameCheckAfterSeconds: 0 } : {}),
        ...(account.bankValidation === 'PENDING' ? { bankValidationAfterSeconds: 0 } : {}),
      }),
      { taskQueue },
    ),
};
