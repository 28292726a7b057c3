import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../../../logger';
import { startInvitationLifecycle } from '../../../temporal/starters/invitation-lifecycle';
import { Invitation } from '../entities';

/**
 * An invitation is stored first and its lifecycle workflow started after the commit. If the
 * process dies in between, nothing would write its expiry (reads already say EXPIRED, and claims
 * are refused, but the row would stay PENDING). This finds PENDING invitations overdue by more
 * than a grace period and starts their workflow with a timer of zero (id = code: a running one
 * is joined, never doubled), which expires them at once.
 */
export async function expireStrandedInvitations(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const overdue = new Date(Date.now() - (options.graceMs ?? 60_000));
  const stranded = await orm.em
    .fork()
    .find(Invitation, { status: 'PENDING', expiresAt: { $lt: overdue } }, { orderBy: { expiresAt: 'asc' }, limit: options.limit ?? 100 });
  const started: string[] = [];
  for (const inv of stranded) {
    try {
      await startInvitationLifecycle(
        client,
        { code: inv.code, platformId: inv.platformId, inviterCustomerId: inv.inviterCustomerId, expiresInMs: 0 },
        { taskQueue: options.taskQueue },
      );
      started.push(inv.code);
    } catch (err) {
      logger.warn({ err, code: inv.code }, 'could not start a stranded invitation lifecycle');
    }
  }
  return started;
}
