import { z } from '../../../api/openapi-registry';
import { MAX_AMOUNT } from '../../../domain/money';

/** The bodies of the same-currency transfers: the platform's /transfer-in|out and the agents' mirrors. */
export const TransferOutRequestSchema = z
  .object({
    source: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('InternalAccountReference'),
    destination: z
      .object({ accountId: z.string().min(1).max(200), paymentRail: z.string().min(1).max(32).optional() })
      .strict()
      .openapi('ExternalAccountDestinationReference'),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the (shared) currency' }),
    remittanceInformation: z.string().max(80).optional(),
    purposeOfPayment: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi('TransferOutRequest');

export const TransferInRequestSchema = z
  .object({
    source: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('ExternalAccountReference'),
    destination: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('InternalAccountReference'),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the (shared) currency' }),
  })
  .strict()
  .openapi('TransferInRequest');
