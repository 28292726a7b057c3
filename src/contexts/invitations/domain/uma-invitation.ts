import type { currencyView } from '../../../domain/currencies';
import type { InvitationStatus } from './invitation-rules';

/**
 * The reference's UmaInvitation as the API and the invitationLifecycle workflow's updates answer it
 * (services/invitation-views.ts builds it from the stored row); declared here, as a rule's type, so that the workflow's
 * contract (workflows/invitations/definitions.ts) reads no service.
 */
export interface InvitationView {
  code: string;
  url: string;
  status: InvitationStatus;
  inviterUma: string;
  inviteeUma?: string;
  firstName?: string;
  /** int64 minor units (exact below 2^53, as MAX_AMOUNT is). */
  amountToSend?: { amount: number; currency: ReturnType<typeof currencyView> };
  createdAt: string;
  expiresAt?: string;
  claimedAt?: string;
}
