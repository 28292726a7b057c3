import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { ExternalAccount } from '../entities';
import { SANDBOX_NAME_CHECK_SECONDS } from '../domain/registration';
import { logger } from '../../../logger';
import { startExternalAccountVerification } from '../../../temporal/starters/external-account-verification';

/**
 * An account is registered first and its verification workflow started after the commit. If the
 * process dies in between, a PENDING name check or US validation would never end. This finds
 * checks overdue by more than a grace period and starts their workflow (id = account id, so a
 * running one is joined, never doubled); the checks then run at once.
 */
export async function startStrandedAccountVerifications(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const overdue = new Date(Date.now() - (options.graceMs ?? 60_000));
  const nameCheckCutoff = new Date(overdue.getTime() - SANDBOX_NAME_CHECK_SECONDS * 1000);
  const stranded = await orm.em.fork().find(
    ExternalAccount,
    {
      deletedAt: null,
      $or: [
        { bankValidation: 'PENDING', bankValidationDueAt: { $lt: overdue } },
        { beneficiaryVerificationStatus: 'PENDING', createdAt: { $lt: nameCheckCutoff } },
      ],
    },
    { orderBy: { createdAt: 'asc' }, limit: options.limit ?? 100 },
  );
  const started: string[] = [];
  for (const account of stranded) {
    try {
      await startExternalAccountVerification(
        client,
        {
          externalAccountId: account.id,
          platformId: account.platformId,
          customerId: account.customerId ?? null,
          environment: account.environment,
          ...(account.beneficiaryVerificationStatus === 'PENDING' ? { nameCheckAfterSeconds: 0 } : {}),
          ...(account.bankValidation === 'PENDING' ? { bankValidationAfterSeconds: 0 } : {}),
        },
        { taskQueue: options.taskQueue },
      );
      started.push(account.id);
    } catch (err) {
      logger.warn({ err, externalAccountId: account.id }, 'could not start a stranded account verification');
    }
  }
  return started;
}
