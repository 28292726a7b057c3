import { defineUpdate } from '@temporalio/workflow';
import type { InvitationView } from '../../src/contexts/invitations/domain/uma-invitation';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

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

/** The invitationLifecycle workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const INVITATION_LIFECYCLE_WORKFLOW: WorkflowKind<'invitationLifecycle', (input: InvitationLifecycleInput) => Promise<{ status: string }>> = {
  type: 'invitationLifecycle',
  taskQueue: 'onboarding',
  versioning: 'AUTO_UPGRADE',
};
