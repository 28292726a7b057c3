import { Invitation } from '../entities';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { startInvitationLifecycle } from '../starters/invitation-lifecycle';

/**
 * An invitation is stored first and its lifecycle workflow started after the commit. If the
 * process dies in between, nothing would write its expiry (reads already say EXPIRED, and claims
 * are refused, but the row would stay PENDING). These are PENDING invitations overdue by more
 * than the grace period; their workflow is started with a timer of zero (id = code: a running one
 * is joined, never doubled), which expires them at once.
 */
export const strandedInvitations: StrandedStart<Invitation> = {
  name: 'invitation expiries',
  find: (em, scope) => findOverdue(em, Invitation, { status: 'PENDING' }, scope, { field: 'expiresAt' }),
  idOf: (invitation) => invitation.code,
  start: (client, invitation, { taskQueue }) =>
    startInvitationLifecycle(
      client,
      { code: invitation.code, platformId: invitation.platformId, inviterCustomerId: invitation.inviterCustomerId, expiresInMs: 0 },
      { taskQueue },
    ),
};
