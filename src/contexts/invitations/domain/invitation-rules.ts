import { DomainError } from '../../../domain/errors';
import { isUmaAddress } from '../../../domain/identifiers/uma';

export const INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The part of an invitation its rules look at. */
export interface InvitationState {
  status: InvitationStatus;
  inviterUma: string;
  expiresAt?: Date | null;
}

/**
 * The status as callers see it: a PENDING invitation whose expiresAt has passed is EXPIRED even
 * before its workflow's timer has written it, so that nothing can claim it in between.
 */
export function effectiveStatus(inv: InvitationState, now: Date): InvitationStatus {
  return inv.status === 'PENDING' && inv.expiresAt && inv.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : inv.status;
}

/** Why an invitation that is no longer PENDING refuses a claim or a cancellation. */
function assertPending(inv: InvitationState, now: Date): void {
  switch (effectiveStatus(inv, now)) {
    case 'PENDING':
      return;
    case 'CLAIMED':
      throw new DomainError('INVITATION_ALREADY_CLAIMED', 'The invitation has already been claimed');
    case 'CANCELLED':
      throw new DomainError('INVITATION_CANCELLED', 'The invitation has been cancelled');
    case 'EXPIRED':
      // §7 has no code for an expired invitation: the path's code is the invalid field.
      throw DomainError.invalidInput([{ field: 'invitationCode', constraint: 'expired', message: 'the invitation has expired' }], 'The invitation has expired');
  }
}

/** A claim: a PENDING, unexpired invitation and a well-formed invitee address other than the inviter's. */
export function assertClaimable(inv: InvitationState, inviteeUma: string, now: Date): void {
  assertPending(inv, now);
  if (!isUmaAddress(inviteeUma))
    throw new DomainError('INVALID_UMA_ADDRESS', 'inviteeUma is not a UMA address such as $bob@uma.example.com', {
      errors: [{ field: 'inviteeUma', constraint: 'pattern', message: 'must be a UMA address' }],
    });
  if (inviteeUma.toLowerCase() === inv.inviterUma.toLowerCase())
    throw new DomainError('INVALID_UMA_ADDRESS', 'An invitation cannot be claimed by its inviter', {
      errors: [{ field: 'inviteeUma', constraint: 'notInviter', message: 'must differ from inviterUma' }],
    });
}

/** Only a PENDING invitation can be cancelled. */
export function assertCancellable(inv: InvitationState, now: Date): void {
  assertPending(inv, now);
}

/** Where the invitee opens the invitation: on the platform's UMA domain. */
export function invitationUrl(umaDomain: string, code: string): string {
  return `https://${umaDomain}/invite/${code}`;
}
