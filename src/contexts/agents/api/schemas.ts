import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { AGENT_ACTION_STATUSES, AGENT_ACTION_TYPES } from '../domain/agent-actions';
import { AGENT_EXECUTION_MODES, AGENT_PERMISSIONS } from '../domain/agent-policy';

// Amounts are integers of the currency's smallest unit, read as bigint from here on.
const MAX_AMOUNT = 9_000_000_000_000_000;
const Amount = z.number().int().min(0).max(MAX_AMOUNT).transform(BigInt).openapi({ type: 'integer', format: 'int64', example: 50000 });
const NullableAmount = z
  .number()
  .int()
  .min(0)
  .max(MAX_AMOUNT)
  .transform(BigInt)
  .nullable()
  .openapi({ type: ['integer', 'null'], format: 'int64' });
const AmountOut = z.number().int().openapi({ format: 'int64' });
const Currency = z.enum(SUPPORTED_CURRENCY_CODES).openapi({ description: 'ISO 4217 code (or a supported crypto ticker)', example: 'USD' });
const Name = z.string().trim().min(1).max(255).openapi({ example: 'Payroll Automation Agent' });
const AccountId = z.string().min(1).max(200).openapi({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000001' });

export const AgentPermissionSchema = z.enum(AGENT_PERMISSIONS).openapi('AgentPermission');
export const AgentExecutionModeSchema = z.enum(AGENT_EXECUTION_MODES).openapi('AgentExecutionMode');
export const AgentActionStatusSchema = z.enum(AGENT_ACTION_STATUSES).openapi('AgentActionStatus');
export const AgentActionTypeSchema = z.enum(AGENT_ACTION_TYPES).openapi('AgentActionType');

const Permissions = z
  .array(AgentPermissionSchema)
  .max(AGENT_PERMISSIONS.length)
  .refine((list) => new Set(list).size === list.length, { message: 'each permission once' });

const SpendingLimitsFields = {
  currency: Currency,
  perTransactionLimit: Amount,
  dailyLimit: NullableAmount.optional().openapi({ description: 'Null: no daily limit' }),
  dailyTransactionLimit: z.number().int().min(0).max(1_000_000).optional(),
  monthlyLimit: NullableAmount.optional().openapi({ description: 'Null: no monthly limit' }),
};
const AgentSpendingLimitsInput = z.object(SpendingLimitsFields).strict().openapi('AgentSpendingLimits');
const AgentSpendingLimitsUpdateInput = z
  .object({ ...SpendingLimitsFields, currency: Currency.optional(), perTransactionLimit: Amount.optional() })
  .strict()
  .openapi('AgentSpendingLimitsUpdate');

const AgentAccountRuleInput = z
  .object({ accountId: AccountId, executionMode: AgentExecutionModeSchema.optional(), perTransactionLimit: NullableAmount.optional() })
  .strict()
  .openapi('AgentAccountRule');
const AgentAccountRestrictionsInput = z
  .object({
    allowedAccountIds: z.array(AccountId).max(100).nullable().optional().openapi({ description: "Null: every account of the agent's customer" }),
    accountRules: z.array(AgentAccountRuleInput).max(100).optional(),
  })
  .strict()
  .openapi('AgentAccountRestrictions');
const AgentApprovalThresholdsInput = z
  .object({ currency: Currency.optional(), amount: NullableAmount.optional().openapi({ description: 'Above this amount an action needs approval' }) })
  .strict()
  .openapi('AgentApprovalThresholds');

const AgentPolicyInput = z
  .object({
    permissions: Permissions,
    defaultExecutionMode: AgentExecutionModeSchema,
    spendingLimits: AgentSpendingLimitsInput,
    accountRestrictions: AgentAccountRestrictionsInput.optional(),
    approvalThresholds: AgentApprovalThresholdsInput.optional(),
  })
  .strict()
  .openapi('AgentPolicyInput');

export const AgentCreateRequestSchema = z
  .object({ name: Name, customerId: z.string().min(1).max(200), policy: AgentPolicyInput })
  .strict()
  .openapi('AgentCreateRequest');

export const AgentUpdateRequestSchema = z.object({ name: Name.optional(), isPaused: z.boolean().optional() }).strict().openapi('AgentUpdateRequest');

export const AgentPolicyUpdateRequestSchema = z
  .object({
    permissions: Permissions.optional(),
    defaultExecutionMode: AgentExecutionModeSchema.optional(),
    spendingLimits: AgentSpendingLimitsUpdateInput.optional(),
    accountRestrictions: AgentAccountRestrictionsInput.optional(),
    approvalThresholds: AgentApprovalThresholdsInput.optional(),
  })
  .strict()
  .openapi('AgentPolicyUpdateRequest');

export const AgentActionRejectRequestSchema = z
  .object({ reason: z.string().min(1).max(1000).optional() })
  .strict()
  .openapi('AgentActionRejectRequest');

// Responses.

export const AgentPolicySchema = z
  .object({
    permissions: z.array(AgentPermissionSchema),
    defaultExecutionMode: AgentExecutionModeSchema,
    spendingLimits: z.object({
      currency: z.string(),
      perTransactionLimit: AmountOut,
      dailyLimit: AmountOut.nullable().optional(),
      dailyTransactionLimit: z.number().int().optional(),
      monthlyLimit: AmountOut.nullable().optional(),
    }),
    accountRestrictions: z
      .object({
        allowedAccountIds: z.array(z.string()).nullable().optional(),
        accountRules: z
          .array(z.object({ accountId: z.string(), executionMode: AgentExecutionModeSchema.optional(), perTransactionLimit: AmountOut.nullable().optional() }))
          .optional(),
      })
      .optional(),
    approvalThresholds: z.object({ currency: z.string().optional(), amount: AmountOut.nullable().optional() }).optional(),
  })
  .openapi('AgentPolicy');

export const AgentUsageSchema = z
  .object({
    dailyTransactionCount: z.number().int(),
    dailySpend: AmountOut,
    dailyResetDate: z.string().openapi({ format: 'date', example: '2025-07-22' }),
    monthlySpend: AmountOut,
    monthlyResetMonth: z.string().openapi({ example: '2025-08' }),
  })
  .openapi('AgentUsage');

export const AgentSchema = z
  .object({
    id: z.string().openapi({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }),
    name: z.string(),
    customerId: z.string(),
    isPaused: z.boolean(),
    isConnected: z.boolean(),
    policy: AgentPolicySchema,
    usage: AgentUsageSchema,
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Agent');

export const AgentListSchema = pageOf(AgentSchema, 'AgentListResponse');

export const AgentDeviceCodeSchema = z
  .object({
    code: z.string().openapi({ example: 'SVC-AGENT-X7K9-M2P4-Q8RT-5VWZ' }),
    agentId: z.string(),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    redeemed: z.boolean(),
  })
  .openapi('AgentDeviceCode');

export const AgentCreateResponseSchema = z.object({ agent: AgentSchema, deviceCode: AgentDeviceCodeSchema }).openapi('AgentCreateResponse');

export const AgentDeviceCodeStatusSchema = z.object({ code: z.string(), redeemed: z.boolean() }).openapi('AgentDeviceCodeStatusResponse');

export const AgentDeviceCodeRedeemResponseSchema = z
  .object({
    agentId: z.string(),
    agentName: z.string(),
    accessToken: z.string().openapi({ description: 'The bearer token for /agents/me operations: shown in this answer only' }),
    policy: AgentPolicySchema,
  })
  .openapi('AgentDeviceCodeRedeemResponse');

export const AgentActionSchema = z
  .object({
    id: z.string().openapi({ example: 'AgentAction:019542f5-b3e7-1d02-0000-000000000099' }),
    agentId: z.string(),
    customerId: z.string(),
    platformCustomerId: z.string(),
    status: AgentActionStatusSchema,
    type: AgentActionTypeSchema,
    quote: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The quote (EXECUTE_QUOTE actions)' }),
    transferDetails: z
      .object({ amount: AmountOut, currency: z.string(), sourceAccountId: z.string(), destinationAccountId: z.string() })
      .optional()
      .openapi('AgentTransferDetails'),
    transaction: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'The resulting transaction, once approved; absent while the action is PENDING_APPROVAL or REJECTED' }),
    rejectionReason: z.string().optional(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('AgentAction');

export const AgentActionListSchema = pageOf(AgentActionSchema, 'AgentActionListResponse');

const dateTimeFilter = (description: string) => z.iso.datetime({ offset: true }).optional().openapi({ description });
const booleanFilter = (description: string) =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .openapi({ type: 'boolean', description });

export const AgentListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().min(1).max(200).optional(),
  isPaused: booleanFilter('Paused agents only (true) or running ones only (false)'),
  isConnected: booleanFilter('Agents whose device code was redeemed (true) or not yet (false)'),
  createdAfter: dateTimeFilter('Created at or after this time'),
  createdBefore: dateTimeFilter('Created at or before this time'),
  updatedAfter: dateTimeFilter('Updated at or after this time'),
  updatedBefore: dateTimeFilter('Updated at or before this time'),
});

export const ApprovalListQuerySchema = PageQuerySchema.extend({
  agentId: z.string().min(1).max(200).optional(),
  customerId: z.string().min(1).max(200).optional(),
  startDate: dateTimeFilter('Submitted at or after this time'),
  endDate: dateTimeFilter('Submitted at or before this time'),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});

export const AgentActionListQuerySchema = PageQuerySchema.extend({ status: AgentActionStatusSchema.optional() });

export const AgentExternalAccountListQuerySchema = PageQuerySchema.extend({ currency: z.string().min(1).max(5).optional() });

export const DeviceCodeParams = z.object({ code: z.string().min(1).max(64) });
