import type { ActivityDeps } from '../deps';
import { cancelInvitation, claimInvitation, expireInvitation } from '../../src/contexts/invitations/services/invitation-lifecycle';

/** The steps of an invitation's lifecycle, each one database transaction. */
export function createActivities({ orm }: ActivityDeps) {
  return {
    async claimInvitation(input: { code: string; inviteeUma: string; stepId: string }) {
      return claimInvitation(orm.em.fork(), input);
    },
    async cancelInvitation(input: { code: string; stepId: string }) {
      return cancelInvitation(orm.em.fork(), input);
    },
    async expireInvitation(input: { code: string }) {
      return expireInvitation(orm.em.fork(), input);
    },
  };
}

/** What the invitation workflow may call (imported type-only). */
export type InvitationActivities = ReturnType<typeof createActivities>;
