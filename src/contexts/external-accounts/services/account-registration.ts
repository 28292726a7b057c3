import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { Platform } from '../../platforms';
import { logger } from '../../../logger';
import { startExternalAccountVerification } from '../starters/external-account-verification';
import type { ExternalAccount } from '../entities';
import { createExternalAccount } from './external-accounts';
import { verificationInput } from './verification-input';

/**
 * Registers an external account (a customer's or the platform's) and starts the checks it needs:
 * what every registration route does, the agents' included. The account is recorded first; a
 * start that fails is logged and left to the worker's sweep, which starts checks whose workflow
 * did not start.
 */
export async function registerExternalAccount(
  input: Parameters<typeof createExternalAccount>[1] & { em: Parameters<typeof createExternalAccount>[0] },
  engine: { temporal: Client; taskQueue?: string },
): Promise<ExternalAccount> {
  const { em, ...registration } = input;
  const { account, pendingWork } = await createExternalAccount(em, registration);
  if (Object.keys(pendingWork).length > 0) {
    try {
      await startExternalAccountVerification(engine.temporal, verificationInput(account, pendingWork), { taskQueue: engine.taskQueue });
    } catch (err) {
      logger.error({ err, externalAccountId: account.id }, 'could not start the account verification workflow');
    }
  }
  return account;
}

/** registerExternalAccount for a request that names its platform: the platform's settings read first. */
export async function registerExternalAccountFor(
  em: EntityManager,
  engine: { temporal: Client; taskQueue?: string },
  registration: Omit<Parameters<typeof createExternalAccount>[1], 'platform'> & { platformId: string },
): Promise<ExternalAccount> {
  const { platformId, ...rest } = registration;
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  return registerExternalAccount({ em, platform, ...rest }, engine);
}
