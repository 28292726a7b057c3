import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { BURN_SOURCE_TYPES, MINT_FUNDING_TYPES, OPERATION_STATUSES, OPERATION_TYPES, PAYOUT_RAILS } from '../domain/operation-rules';
import {
  GRID_OPERATIONS_STATUSES,
  ISSUANCE_STATUSES,
  PROVIDER_ACCOUNT_STATUSES,
  PROVIDER_ENVIRONMENTS,
  STABLECOIN_NETWORKS,
  STABLECOIN_PROVIDERS,
} from '../domain/stablecoin-states';

export const StablecoinProviderSchema = z.enum(STABLECOIN_PROVIDERS).openapi('StablecoinProvider');
export const StablecoinNetworkSchema = z.enum(STABLECOIN_NETWORKS).openapi('StablecoinNetwork');
export const ProviderEnvironmentSchema = z.enum(PROVIDER_ENVIRONMENTS).openapi('StablecoinProviderEnvironment');
export const ProviderAccountStatusSchema = z.enum(PROVIDER_ACCOUNT_STATUSES).openapi('StablecoinProviderAccountStatus');
export const IssuanceStatusSchema = z.enum(ISSUANCE_STATUSES).openapi('StablecoinIssuanceStatus');
export const GridOperationsStatusSchema = z.enum(GRID_OPERATIONS_STATUSES).openapi('StablecoinSvcOperationsStatus');
export const OperationTypeSchema = z.enum(OPERATION_TYPES).openapi('StablecoinOperationType');
export const OperationStatusSchema = z.enum(OPERATION_STATUSES).openapi('StablecoinOperationStatus');
const PayoutRailSchema = z.enum(PAYOUT_RAILS);

const text = (max: number) => z.string().trim().min(1).max(max);
const accountId = (example: string) => z.string().min(1).max(200).openapi({ example });
/** Token amounts are strings of digits (an 18-decimal token outgrows a JSON number). */
const TokenAmountSchema = z
  .string()
  .regex(/^[0-9]+$/, 'must be a string of digits (the token’s smallest unit)')
  .max(40)
  .openapi({ example: '1000000', description: "In the token's smallest unit; it must convert exactly to a whole cent of the base currency" });

export const ProviderAccountLinkSchema = z
  .object({
    provider: StablecoinProviderSchema,
    apiClientId: text(255),
    apiClientSecret: text(1024).openapi({ writeOnly: true, description: 'Sealed at rest; never returned' }),
    providerAccountId: text(255).optional().openapi({ description: 'Needed when the credentials reach several provider accounts' }),
  })
  .strict()
  .openapi('StablecoinProviderAccountLinkRequest');

export const ProviderAccountSchema = z
  .object({
    id: z.string().openapi({ example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' }),
    provider: StablecoinProviderSchema,
    providerAccountId: z.string(),
    providerEnvironment: ProviderEnvironmentSchema,
    status: ProviderAccountStatusSchema,
    lastVerifiedAt: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('StablecoinProviderAccount');

export const ProviderAccountListSchema = pageOf(ProviderAccountSchema, 'StablecoinProviderAccountListResponse');
export const ProviderAccountListQuerySchema = PageQuerySchema.extend({
  provider: StablecoinProviderSchema.optional(),
  status: ProviderAccountStatusSchema.optional(),
});

export const StablecoinRegisterSchema = z
  .object({
    providerTokenIdentifier: text(64).openapi({
      example: 'ACME',
      description: "Brale's value type. Sandbox: REJECT… is rejected in review, FAIL… fails provisioning, UNKNOWN… does not exist, _D<n> sets n decimals",
    }),
    networkTokenIdentifier: text(255).openapi({ example: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k' }),
    network: StablecoinNetworkSchema,
    stablecoinProviderAccountId: accountId('StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001').optional(),
  })
  .strict()
  .openapi('StablecoinRegisterRequest');

export const StablecoinSchema = z
  .object({
    id: z.string().openapi({ example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' }),
    name: z.string(),
    symbol: z.string(),
    baseCurrency: z.string(),
    network: StablecoinNetworkSchema,
    decimals: z.number().int(),
    issuanceStatus: IssuanceStatusSchema,
    svcOperationsStatus: GridOperationsStatusSchema.openapi({
      description: 'Whether the stablecoin is enabled for operations inside the service (spec §3); the reference calls it gridOperationsStatus',
    }),
    networkTokenIdentifier: z.string(),
    currency: z.string().optional(),
    provider: StablecoinProviderSchema,
    stablecoinProviderAccountId: z.string(),
    providerEnvironment: ProviderEnvironmentSchema,
    providerTokenIdentifier: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Stablecoin');

export const StablecoinListSchema = pageOf(StablecoinSchema, 'StablecoinListResponse');
export const StablecoinListQuerySchema = PageQuerySchema.extend({
  issuanceStatus: IssuanceStatusSchema.optional(),
  svcOperationsStatus: GridOperationsStatusSchema.optional(),
  provider: StablecoinProviderSchema.optional(),
});

const externalAccountFunding = (type: 'ACH_DEBIT' | 'SAME_DAY_ACH_DEBIT') =>
  z.object({ type: z.literal(type), externalAccountId: accountId('ExternalAccount:019542f5-b3e7-1d02-0000-000000000101') }).strict();

export const MintFundingSourceSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('WIRE') }).strict(),
    externalAccountFunding('ACH_DEBIT'),
    externalAccountFunding('SAME_DAY_ACH_DEBIT'),
    z.object({ type: z.literal('SVC_INTERNAL_ACCOUNT'), accountId: accountId('InternalAccount:019542f5-b3e7-1d02-0000-000000000102') }).strict(),
    z
      .object({
        type: z.literal('PROVIDER_INTERNAL_BALANCE'),
        sourceTokenIdentifier: text(64).openapi({ example: 'USDC' }),
        cryptoNetwork: text(32).openapi({ example: 'SOLANA' }),
      })
      .strict(),
  ])
  .openapi('StablecoinMintFundingSource', { description: `One of ${MINT_FUNDING_TYPES.join(', ')}` });

export const MintRequestSchema = z
  .object({
    amount: TokenAmountSchema,
    fundingSource: MintFundingSourceSchema,
    destination: z.object({ accountId: accountId('ExternalAccount:019542f5-b3e7-1d02-0000-000000000201') }).strict(),
    description: z.string().max(1024).optional(),
  })
  .strict()
  .openapi('StablecoinMintRequest');

export const BurnSourceSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('EXTERNAL_ACCOUNT') }).strict(),
    z.object({ type: z.literal('SVC_INTERNAL_ACCOUNT'), accountId: accountId('InternalAccount:019542f5-b3e7-1d02-0000-000000000204') }).strict(),
    z.object({ type: z.literal('PROVIDER_INTERNAL_BALANCE') }).strict(),
  ])
  .openapi('StablecoinBurnSource', { description: `One of ${BURN_SOURCE_TYPES.join(', ')}` });

export const BurnRequestSchema = z
  .object({
    amount: TokenAmountSchema,
    source: BurnSourceSchema,
    destination: z
      .object({
        type: z.literal('EXTERNAL_ACCOUNT'),
        externalAccountId: accountId('ExternalAccount:019542f5-b3e7-1d02-0000-000000000205'),
        rail: PayoutRailSchema,
      })
      .strict(),
    description: z.string().max(1024).optional(),
  })
  .strict()
  .openapi('StablecoinBurnRequest');

export const StablecoinOperationSchema = z
  .object({
    id: z.string().openapi({ example: 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301' }),
    stablecoinId: z.string(),
    operationType: OperationTypeSchema,
    status: OperationStatusSchema,
    amount: z.string(),
    provider: StablecoinProviderSchema,
    providerEnvironment: ProviderEnvironmentSchema,
    stablecoinProviderAccountId: z.string(),
    source: z
      .object({
        type: z.enum([...MINT_FUNDING_TYPES, 'EXTERNAL_ACCOUNT']),
        externalAccountId: z.string().optional(),
        accountId: z.string().optional(),
        sourceTokenIdentifier: z.string().optional(),
        cryptoNetwork: z.string().optional(),
      })
      .optional(),
    fundingInstructions: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: 'Where to send the funds the operation waits for (wire details, or a Spark deposit address)' }),
    destination: z.object({ accountId: z.string(), rail: PayoutRailSchema.optional() }).optional(),
    estimatedDelivery: z.record(z.string(), z.string()).optional(),
    expiresAt: z.string().optional(),
    providerStatus: z.string().optional(),
    failureReason: z.string().optional(),
    description: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('StablecoinOperation');

export const StablecoinOperationListSchema = pageOf(StablecoinOperationSchema, 'StablecoinOperationListResponse');
export const OperationListQuerySchema = PageQuerySchema.extend({ operationType: OperationTypeSchema.optional() });
