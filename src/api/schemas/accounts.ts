import { MAX_SANDBOX_FUND_AMOUNT } from '../../domain/money';
import { z } from '../openapi-registry';
import { CurrencyAmountSchema, PageQuerySchema, pageOf } from './common';

export const PaymentInstructionsSchema = z
  .object({
    instructionsNotes: z.string().optional(),
    isPlatformAccount: z.boolean().optional(),
    accountOrWalletInfo: z.record(z.string(), z.unknown()).openapi({ description: 'Deposit coordinates; discriminated by accountType' }),
  })
  .openapi('PaymentInstructions');

export const InternalAccountSchema = z
  .object({
    id: z.string().openapi({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' }),
    customerId: z.string().optional(),
    type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']),
    status: z.enum(['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED']),
    balance: CurrencyAmountSchema,
    totalBalance: CurrencyAmountSchema,
    fundingPaymentInstructions: z.array(PaymentInstructionsSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('InternalAccount');

export const InternalAccountListSchema = pageOf(InternalAccountSchema, 'InternalAccountListResponse');

export const InternalAccountListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().optional(),
  currency: z.string().optional(),
  type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).optional(),
});

export const PlatformInternalAccountQuerySchema = z.object({
  currency: z.string().optional(),
  type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).optional(),
});

export const SandboxFundRequestSchema = z
  .object({
    amount: z
      .number({ error: (i) => (i.input === undefined ? 'amount is required' : 'amount must be an integer number of the smallest currency unit') })
      .int('amount must be an integer number of the smallest currency unit')
      .positive('amount must be greater than zero')
      .max(Number(MAX_SANDBOX_FUND_AMOUNT), `amount must be at most ${MAX_SANDBOX_FUND_AMOUNT}`)
      .openapi({ format: 'int64', example: 100000 }),
  })
  .openapi('SandboxFundRequest');
