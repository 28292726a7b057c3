import { z } from '../../../api/openapi-registry';
import { CurrencyAmountSchema } from '../../../api/schemas/common';

const LedgerPostingSchema = z
  .object({
    accountId: z.string().openapi({ description: "The ledger account: an internal account's id, or one of the platform's system accounts (`Ledger:…`)" }),
    accountKind: z.string().openapi({
      description: 'INTERNAL_ACCOUNT, or the system account it is: PENDING_OUTGOING, RAIL_CLEARING, PLATFORM_FEES, SERVICE_REVENUE, SANDBOX_FUNDING_SOURCE …',
    }),
    direction: z.enum(['DEBIT', 'CREDIT']).openapi({ description: "CREDIT raises the account's balance, DEBIT lowers it" }),
    amount: CurrencyAmountSchema.openapi({ description: "The posting's size, positive, in minor units" }),
  })
  .openapi('LedgerPosting');

const LedgerEntrySchema = z
  .object({
    id: z.string(),
    description: z.string().openapi({ example: 'Outgoing payment settled' }),
    postedAt: z.iso.datetime(),
    postings: z.array(LedgerPostingSchema).openapi({ description: 'Its debits equal its credits in each currency' }),
  })
  .openapi('LedgerEntry');

export const TransactionLedgerEntriesSchema = z
  .object({ data: z.array(LedgerEntrySchema).openapi({ description: 'Oldest first; empty while nothing has moved' }) })
  .openapi('TransactionLedgerEntries');
