import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiDeps } from '../../../api/context';
import type { Environment } from '../../platforms';
import { logger } from '../../../logger';
import { startWebhookDelivery } from '../../webhooks';
import { markReadyForVerification } from '../services/verifications';

/**
 * Called by the routes that change a customer's packet once their change is committed: a
 * verification sent back for fixes that is complete now turns READY_FOR_VERIFICATION and is
 * announced. The change itself succeeded already, so a failure here is logged, not answered.
 */
export async function announceReadiness(
  em: EntityManager,
  deps: ApiDeps,
  caller: { platformId: string; environment: Environment },
  customerId: string,
): Promise<void> {
  try {
    const event = await markReadyForVerification(em, { platformId: caller.platformId, customerId, environment: caller.environment });
    if (event) await startWebhookDelivery(deps.temporal, event, { taskQueue: deps.taskQueue });
  } catch (err) {
    logger.error({ err, customerId }, 'could not mark the verification ready');
  }
}
