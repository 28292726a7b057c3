import { defineUpdate } from '@temporalio/workflow';
import type { InvitationView } from '../../src/contexts/invitations/services/invitation-views';

/** Input and updates of the invitationLifecycle workflow, shared with the API that starts it. */

export interface InvitationLifecycleInput {
  /** Also the workflow id: one lifecycle workflow per invitation. */
  code: string;
  platformId: string;
  inviterCustomerId: string;
  /**
   * How long until expiresAt, counted by the starter when it starts the run (a durable timer; the
   * activity judges expiry against the stored expiresAt); null: it waits for a claim or a cancellation.
   */
  expiresInMs: number | null;
}

/** POST /invitations/{code}/claim: answered with the claimed invitation, or refused with its §7 code. */
export const claimInvitationUpdate = defineUpdate<InvitationView, [{ inviteeUma: string }]>('claimInvitation');
/** POST /invitations/{code}/cancel: answered with the cancelled invitation. */
export const cancelInvitationUpdate = defineUpdate<InvitationView, []>('cancelInvitation');
