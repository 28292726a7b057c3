import type { Client } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platforms';
import { startWebhookDelivery, WebhookEvent } from '../../webhooks';
import type { InternalAccount } from '../entities';
import { logger } from '../../../logger';
import { accountStatusEventId, recordOpenedAccountEvents } from './provisioning';

export interface AnnounceContext {
  em: EntityManager;
  temporal: Client;
  taskQueue?: string;
  environment: Environment;
}

/**
 * For API callers, after the provisioning transaction committed: records the accounts'
 * STATUS_UPDATED events and starts their delivery. Accounts whose event is already recorded
 * were announced before and are skipped, so a repeat never sends twice. The request has
 * already succeeded, so a failure here is logged rather than thrown.
 */
export async function announceOpenedAccounts(ctx: AnnounceContext, accounts: InternalAccount[]): Promise<void> {
  if (accounts.length === 0) return;
  try {
    const known = new Set((await ctx.em.find(WebhookEvent, { id: { $in: accounts.map(accountStatusEventId) } })).map((e) => e.id));
    const events = await recordOpenedAccountEvents(
      ctx.em,
      ctx.environment,
      accounts.filter((a) => !known.has(accountStatusEventId(a))),
    );
    for (const event of events) await startWebhookDelivery(ctx.temporal, event, { taskQueue: ctx.taskQueue });
  } catch (err) {
    logger.error({ err, accountIds: accounts.map((a) => a.id) }, 'could not announce opened internal accounts');
  }
}
