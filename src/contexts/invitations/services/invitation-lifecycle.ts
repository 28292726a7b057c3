import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import { recordWebhookEvent } from '../../webhooks';
import { assertCancellable, assertClaimable } from '../domain/invitation-rules';
import { Invitation } from '../entities';
import { invitationView, type InvitationView } from './invitation-views';

// The steps of an invitation's workflow (activities): each one database transaction with the row
// locked, so a claim, a cancellation and the expiry never both succeed. `stepId` is the workflow's
// id for the step: a retried activity whose first try committed finds its own work and answers
// the same.

export interface SettledInvitation {
  invitation: InvitationView;
  events: { eventId: string; type: string }[];
}

async function locked(tx: EntityManager, code: string): Promise<Invitation> {
  const inv = await tx.findOne(Invitation, { code }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!inv) throw DomainError.notFound('Invitation');
  return inv;
}

/** PENDING → CLAIMED by `inviteeUma`, with the INVITATION.CLAIMED event for the inviter's platform. */
export async function claimInvitation(em: EntityManager, input: { code: string; inviteeUma: string; stepId: string }): Promise<SettledInvitation> {
  return em.transactional(async (tx) => {
    const inv = await locked(tx, input.code);
    const eventId = derivedId('Webhook', inv.code, 'INVITATION.CLAIMED');
    if (inv.settledBy === input.stepId) return { invitation: invitationView(inv), events: [{ eventId, type: 'INVITATION.CLAIMED' }] };
    const now = new Date();
    assertClaimable(inv, input.inviteeUma, now);
    Object.assign(inv, { status: 'CLAIMED', inviteeUma: input.inviteeUma, claimedAt: now, settledBy: input.stepId, updatedAt: now });
    await tx.flush();
    const invitation = invitationView(inv, now);
    await recordWebhookEvent(tx, { id: eventId, platformId: inv.platformId, environment: inv.environment, type: 'INVITATION.CLAIMED', data: invitation });
    return { invitation, events: [{ eventId, type: 'INVITATION.CLAIMED' }] };
  });
}

/** PENDING → CANCELLED. */
export async function cancelInvitation(em: EntityManager, input: { code: string; stepId: string }): Promise<SettledInvitation> {
  return em.transactional(async (tx) => {
    const inv = await locked(tx, input.code);
    if (inv.settledBy === input.stepId) return { invitation: invitationView(inv), events: [] };
    const now = new Date();
    assertCancellable(inv, now);
    Object.assign(inv, { status: 'CANCELLED', cancelledAt: now, settledBy: input.stepId, updatedAt: now });
    await tx.flush();
    return { invitation: invitationView(inv, now), events: [] };
  });
}

/** The expiry timer fired: PENDING → EXPIRED; an invitation already settled stays as it is. */
export async function expireInvitation(em: EntityManager, input: { code: string }): Promise<{ status: string }> {
  return em.transactional(async (tx) => {
    const inv = await locked(tx, input.code);
    if (inv.status === 'PENDING') {
      inv.status = 'EXPIRED';
      inv.updatedAt = new Date();
      await tx.flush();
    }
    return { status: inv.status };
  });
}
