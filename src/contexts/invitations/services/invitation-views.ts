import { currencyView } from '../../../domain/currencies';
import { effectiveStatus } from '../domain/invitation-rules';
import type { InvitationView } from '../domain/uma-invitation';
import type { Invitation } from '../entities';

export type { InvitationView };

/** The reference's UmaInvitation; amounts are int64 minor units (exact below 2^53, as MAX_AMOUNT is). */
export function invitationView(inv: Invitation, now = new Date()): InvitationView {
  return {
    code: inv.code,
    url: inv.url,
    status: effectiveStatus(inv, now),
    inviterUma: inv.inviterUma,
    ...(inv.inviteeUma ? { inviteeUma: inv.inviteeUma } : {}),
    ...(inv.firstName ? { firstName: inv.firstName } : {}),
    ...(inv.amountToSend != null && inv.currency ? { amountToSend: { amount: Number(inv.amountToSend), currency: currencyView(inv.currency) } } : {}),
    createdAt: inv.createdAt.toISOString(),
    ...(inv.expiresAt ? { expiresAt: inv.expiresAt.toISOString() } : {}),
    ...(inv.claimedAt ? { claimedAt: inv.claimedAt.toISOString() } : {}),
  };
}
