import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { z } from '../../../api/openapi-registry';
import { isUmaDomain, MAX_UMA_DOMAIN } from '../../platforms';

export const PlatformCurrencyConfigSchema = z
  .object({
    currencyCode: z.enum(SUPPORTED_CURRENCY_CODES),
    minAmount: z.number().int().min(0),
    maxAmount: z.number().int().min(0),
    requiredCounterpartyFields: z.array(z.object({ name: z.string(), mandatory: z.boolean() })),
    enabledTransactionTypes: z.array(z.enum(['INCOMING', 'OUTGOING'])),
  })
  .refine((c) => c.minAmount <= c.maxAmount, { message: 'minAmount must not exceed maxAmount', path: ['minAmount'], params: { constraint: 'range' } })
  .openapi('PlatformCurrencyConfig');

export const FeeConfigSchema = z
  .object({
    feeType: z.enum(['CROSS_CURRENCY_TRANSACTION']),
    sourceCurrency: z.enum(SUPPORTED_CURRENCY_CODES),
    variableFeeBps: z.number().int().min(0).max(10_000),
    fixedFee: z.object({ amount: z.number().int().min(0), currency: z.enum(SUPPORTED_CURRENCY_CODES) }),
  })
  .openapi('FeeConfig');

export const EmbeddedWalletConfigSchema = z
  .object({
    appName: z.string().max(255).optional(),
    otpLength: z.number().int().min(4).max(12).optional(),
    alphanumeric: z.boolean().optional(),
    expirationSeconds: z.number().int().min(1).max(86_400).optional(),
    sendFromEmailAddress: z.email().max(255).optional(),
    sendFromEmailSenderName: z.string().max(255).optional(),
    replyToEmailAddress: z.email().max(255).optional(),
    logoUrl: z.url().max(512).optional(),
  })
  .openapi('EmbeddedWalletConfig');

export const PlatformConfigSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    umaDomain: z.string().optional(),
    webhookEndpoint: z.string().optional(),
    supportedCurrencies: z.array(PlatformCurrencyConfigSchema),
    isRegulatedFinancialInstitution: z.boolean(),
    region: z.string().openapi({ description: 'Regulatory region, e.g. US or EU (read-only)' }),
    embeddedWalletsSupported: z.boolean().openapi({ description: 'Embedded wallets / USDB supported (read-only)' }),
    counterpartyInformationRequired: z.boolean().openapi({ description: 'Travel-rule counterparty information required (read-only)' }),
    embeddedWalletConfig: EmbeddedWalletConfigSchema.optional(),
    feeConfigs: z.array(FeeConfigSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('PlatformConfig');

export const PlatformConfigUpdateSchema = z
  .object({
    umaDomain: z
      .string()
      .min(1)
      .max(MAX_UMA_DOMAIN)
      .refine(isUmaDomain, { message: 'must be a host name such as pay.example.com', params: { constraint: 'pattern' } })
      .optional()
      .openapi({
        description:
          "The platform's UMA domain: its customers' UMA addresses are on it and its invitation links live there. One platform's only (another's: 409 UMA_DOMAIN_TAKEN); it can be left only while no customer's address is on it (409 UMA_DOMAIN_IN_USE). Without one, the platform's default domain (a subdomain of sandbox.uma.local) is used.",
        example: 'pay.example.com',
      }),
    webhookEndpoint: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional()
      .openapi({ description: 'Where webhooks are POSTed; null removes it. Setting it sends a TEST webhook.' }),
    supportedCurrencies: z
      .array(PlatformCurrencyConfigSchema)
      .min(1)
      .refine((list) => new Set(list.map((c) => c.currencyCode)).size === list.length, {
        message: 'each currency may appear once',
        params: { constraint: 'unique' },
      })
      .optional(),
    embeddedWalletConfig: EmbeddedWalletConfigSchema.optional(),
    feeConfigs: z
      .array(FeeConfigSchema)
      .refine((list) => new Set(list.map((f) => `${f.feeType}:${f.sourceCurrency}`)).size === list.length, {
        message: 'at most one fee config per feeType and sourceCurrency',
        params: { constraint: 'unique' },
      })
      .optional()
      .openapi({
        description:
          'Merge-by-key upsert keyed by (feeType, sourceCurrency): configs sent replace or add, others stay; zero variableFeeBps and zero fixedFee.amount deactivate the config with that key. Omit to leave fee configs unchanged. Only sourceCurrency USD is accepted today (others: 501 NOT_IMPLEMENTED).',
      }),
  })
  .openapi('PlatformConfigUpdateRequest');
