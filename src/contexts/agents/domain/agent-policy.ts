import type { FieldError } from '../../../domain/errors';

/** What an agent may do (the reference's AgentPermission); each agent operation names the one it needs. */
export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];

export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type AgentExecutionMode = (typeof AGENT_EXECUTION_MODES)[number];

/** Amounts in the smallest unit of `currency`; `null` daily/monthly limits mean no limit. */
export interface AgentSpendingLimits {
  currency: string;
  perTransactionLimit: bigint;
  dailyLimit?: bigint | null;
  dailyTransactionLimit?: number;
  monthlyLimit?: bigint | null;
}

export interface AgentAccountRule {
  accountId: string;
  executionMode?: AgentExecutionMode;
  perTransactionLimit?: bigint | null;
}

export interface AgentAccountRestrictions {
  /** `null` (or absent): every account of the customer. */
  allowedAccountIds?: string[] | null;
  accountRules?: AgentAccountRule[];
}

export interface AgentApprovalThresholds {
  currency?: string;
  amount?: bigint | null;
}

/** The reference's AgentPolicy. */
export interface AgentPolicy {
  permissions: AgentPermission[];
  defaultExecutionMode: AgentExecutionMode;
  spendingLimits: AgentSpendingLimits;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

/** PATCH /agents/{id}/policy: every field optional; spending limits field by field. */
export interface AgentPolicyUpdate {
  permissions?: AgentPermission[];
  defaultExecutionMode?: AgentExecutionMode;
  spendingLimits?: Partial<AgentSpendingLimits>;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

/**
 * The policy after a partial update: `permissions` replaces the list, `spendingLimits` merges
 * field by field (the reference says both); `accountRestrictions` and `approvalThresholds` are
 * replaced whole when sent (the reference leaves it open; a whole object is what a platform
 * reviewing a policy reads, and a merge could not remove an allowed account).
 */
export function mergePolicy(current: AgentPolicy, update: AgentPolicyUpdate): AgentPolicy {
  const merged: AgentPolicy = {
    permissions: update.permissions ?? current.permissions,
    defaultExecutionMode: update.defaultExecutionMode ?? current.defaultExecutionMode,
    spendingLimits: { ...current.spendingLimits, ...definedOnly(update.spendingLimits ?? {}) },
  };
  const restrictions = update.accountRestrictions ?? current.accountRestrictions;
  if (restrictions) merged.accountRestrictions = restrictions;
  const thresholds = update.approvalThresholds ?? current.approvalThresholds;
  if (thresholds) merged.approvalThresholds = thresholds;
  return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Rules across fields of a whole policy (each field's own shape is the schema's): reported as field errors under `prefix`. */
export function policyProblems(policy: AgentPolicy, prefix = 'policy'): FieldError[] {
  const problems: FieldError[] = [];
  const thresholds = policy.approvalThresholds;
  if (thresholds && thresholds.amount !== undefined && thresholds.amount !== null && !thresholds.currency) {
    problems.push({ field: `${prefix}.approvalThresholds.currency`, constraint: 'required', message: 'required when approvalThresholds.amount is set' });
  }
  const ruled = (policy.accountRestrictions?.accountRules ?? []).map((rule) => rule.accountId);
  ruled.forEach((id, i) => {
    if (ruled.indexOf(id) !== i)
      problems.push({ field: `${prefix}.accountRestrictions.accountRules.${i}.accountId`, constraint: 'unique', message: 'one rule per account' });
  });
  return problems;
}

/** Every account the policy names (allowed accounts and per-account rules): each must be an internal account of the agent's customer. */
export function accountsNamedBy(policy: AgentPolicy): { field: string; accountId: string }[] {
  const restrictions = policy.accountRestrictions;
  return [
    ...(restrictions?.allowedAccountIds ?? []).map((accountId, i) => ({ field: `accountRestrictions.allowedAccountIds.${i}`, accountId })),
    ...(restrictions?.accountRules ?? []).map((rule, i) => ({ field: `accountRestrictions.accountRules.${i}.accountId`, accountId: rule.accountId })),
  ];
}

/** Whether the policy lets the agent use this internal account (no allow list: every account of its customer). */
export function mayUseAccount(policy: AgentPolicy, accountId: string): boolean {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  return !allowed || allowed.includes(accountId);
}

/** The policy as stored (jsonb): amounts as decimal strings, so that no amount passes through a float. */
export type StoredAgentPolicy = Record<string, unknown>;

const AMOUNT_FIELDS = new Set(['perTransactionLimit', 'dailyLimit', 'monthlyLimit', 'amount']);

function mapAmounts(value: unknown, convert: (amount: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapAmounts(item, convert));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, AMOUNT_FIELDS.has(key) && v !== null && v !== undefined ? convert(v) : mapAmounts(v, convert)]),
  );
}

export function storedPolicy(policy: AgentPolicy): StoredAgentPolicy {
  return mapAmounts(policy, (amount) => String(amount)) as StoredAgentPolicy;
}

export function policyOf(stored: StoredAgentPolicy): AgentPolicy {
  return mapAmounts(stored, (amount) => BigInt(amount as string)) as AgentPolicy;
}
