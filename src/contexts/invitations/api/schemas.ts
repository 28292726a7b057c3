import { z } from '../../../api/openapi-registry';
import { AmountSchema, CurrencyAmountSchema } from '../../../api/schemas/common';
import { MAX_AMOUNT } from '../../../domain/money';
import { INVITATION_STATUSES } from '../domain/invitation-rules';

const UmaAddressField = (description: string) => z.string().min(1).max(255).openapi({ description, example: '$alice@uma.example.com' });

/** inviterUma's form and owner are judged by the route's check (INVALID_UMA_ADDRESS when only it is wrong). */
export const InvitationCreateSchema = z
  .object({
    inviterUma: UmaAddressField("The UMA address of the platform's customer who invites"),
    firstName: z.string().trim().min(1).max(255).optional().openapi({ description: 'First name to show with the invitation' }),
    amountToSend: AmountSchema.min(1)
      .max(Number(MAX_AMOUNT))
      .optional()
      .transform((v) => (v === undefined ? undefined : BigInt(v)))
      .openapi({ description: "Smallest unit of the inviter's currency; shown to the invitee. The platform sends it itself after INVITATION.CLAIMED." }),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) > Date.now(), { message: 'must be in the future', params: { constraint: 'future' } })
      .optional()
      .openapi({ description: 'When the invitation expires; none when absent' }),
  })
  .strict()
  .openapi('UmaInvitationCreateRequest');

export const InvitationClaimSchema = z
  .object({ inviteeUma: UmaAddressField('The UMA address of the customer who claims the invitation') })
  .strict()
  .openapi('UmaInvitationClaimRequest');

export const InvitationSchema = z
  .object({
    code: z.string(),
    url: z.string(),
    status: z.enum(INVITATION_STATUSES),
    inviterUma: z.string(),
    inviteeUma: z.string().optional(),
    firstName: z.string().optional(),
    amountToSend: CurrencyAmountSchema.optional(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().optional(),
    claimedAt: z.iso.datetime().optional(),
  })
  .openapi('UmaInvitation');

/** Not an IdParam: codes are not `<Type>:<uuid>` ids; an unknown code is 404 INVITATION_NOT_FOUND. */
export const InvitationCodeParam = z.object({ invitationCode: z.string().min(1).max(64) });
