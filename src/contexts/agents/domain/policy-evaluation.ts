import type { AgentActionType } from './agent-actions';
import { mayUseAccount, type AgentPermission, type AgentPolicy } from './agent-policy';

/** The permission each kind of action needs (the routes check it too; the gate again when an approval resumes it). */
export const PERMISSION_OF_ACTION: Record<AgentActionType, AgentPermission> = {
  EXECUTE_QUOTE: 'EXECUTE_QUOTES',
  TRANSFER_OUT: 'CREATE_TRANSFERS',
  TRANSFER_IN: 'CREATE_TRANSFERS',
};

/** Which rule of the policy refused an action: the 403's details.rule. */
export type PolicyRule =
  | 'AGENT_PAUSED'
  | 'PERMISSION'
  | 'ACCOUNT_NOT_ALLOWED'
  | 'PER_TRANSACTION_LIMIT'
  | 'ACCOUNT_PER_TRANSACTION_LIMIT'
  | 'DAILY_TRANSACTION_LIMIT'
  | 'DAILY_LIMIT'
  | 'MONTHLY_LIMIT';

const LIMIT_RULES: readonly PolicyRule[] = [
  'PER_TRANSACTION_LIMIT',
  'ACCOUNT_PER_TRANSACTION_LIMIT',
  'DAILY_TRANSACTION_LIMIT',
  'DAILY_LIMIT',
  'MONTHLY_LIMIT',
];

export interface PolicyRefusal {
  rule: PolicyRule;
  message: string;
}

/** What an action is judged on: the amounts are in the policy's currency, usage excludes the action itself. */
export interface ActionUnderPolicy {
  type: AgentActionType;
  /** The customer's internal account the action spends from (or pays into, for a transfer-in). */
  accountId: string;
  /** The amount in the policy's spending-limit currency. */
  amount: bigint;
  usage: { dailyTransactionCount: number; dailySpend: bigint; monthlySpend: bigint };
}

/**
 * The first rule the action breaks, in the order a reader checks them: the agent is paused, lacks
 * the permission, may not use the account, or the amount is over a per-transaction limit (the
 * policy's, or the account rule's), or today's count, today's or this month's spend would pass
 * their limit with it. Null when the policy allows it.
 */
export function policyRefusal(policy: AgentPolicy, isPaused: boolean, action: ActionUnderPolicy): PolicyRefusal | null {
  const limits = policy.spendingLimits;
  const currency = limits.currency;
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === action.accountId);
  if (isPaused) return { rule: 'AGENT_PAUSED', message: 'The agent is paused: it may read, but not act' };
  const permission = PERMISSION_OF_ACTION[action.type];
  if (!policy.permissions.includes(permission)) return { rule: 'PERMISSION', message: `The agent's policy lacks the ${permission} permission` };
  if (!mayUseAccount(policy, action.accountId))
    return { rule: 'ACCOUNT_NOT_ALLOWED', message: `The agent's policy does not allow the account ${action.accountId}` };
  if (action.amount > limits.perTransactionLimit)
    return { rule: 'PER_TRANSACTION_LIMIT', message: `The amount is over the per-transaction limit of ${limits.perTransactionLimit} ${currency}` };
  if (rule?.perTransactionLimit !== undefined && rule.perTransactionLimit !== null && action.amount > rule.perTransactionLimit)
    return {
      rule: 'ACCOUNT_PER_TRANSACTION_LIMIT',
      message: `The amount is over the account's per-transaction limit of ${rule.perTransactionLimit} ${currency}`,
    };
  if (limits.dailyTransactionLimit !== undefined && action.usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit)
    return { rule: 'DAILY_TRANSACTION_LIMIT', message: `The agent has made its ${limits.dailyTransactionLimit} transactions of today` };
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && action.usage.dailySpend + action.amount > limits.dailyLimit)
    return { rule: 'DAILY_LIMIT', message: `The amount would take today's spend over the daily limit of ${limits.dailyLimit} ${currency}` };
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && action.usage.monthlySpend + action.amount > limits.monthlyLimit)
    return { rule: 'MONTHLY_LIMIT', message: `The amount would take this month's spend over the monthly limit of ${limits.monthlyLimit} ${currency}` };
  return null;
}

/**
 * Whether the platform must approve the action: the account's rule, else the policy's default
 * execution mode, says APPROVAL_REQUIRED, or the amount (in the thresholds' currency) is over the
 * approval threshold.
 */
export function needsApproval(policy: AgentPolicy, accountId: string, amountInThresholdCurrency: bigint | undefined): boolean {
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === accountId);
  if ((rule?.executionMode ?? policy.defaultExecutionMode) === 'APPROVAL_REQUIRED') return true;
  const threshold = policy.approvalThresholds?.amount;
  return threshold !== undefined && threshold !== null && amountInThresholdCurrency !== undefined && amountInThresholdCurrency > threshold;
}

/**
 * The transaction's failureReason (the reference's OutgoingTransactionFailureReason) when an
 * approved action is refused on re-evaluation: LIMIT_EXCEEDED for a limit, QUOTE_EXECUTION_FAILED
 * for any other rule (the action's webhook and the refusal's words say which).
 */
export function failureReasonOf(rule: PolicyRule): string {
  return LIMIT_RULES.includes(rule) ? 'LIMIT_EXCEEDED' : 'QUOTE_EXECUTION_FAILED';
}
