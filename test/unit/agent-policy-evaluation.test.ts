import type { AgentPolicy } from '../../src/contexts/agents/domain/agent-policy';
import { failureReasonOf, needsApproval, policyRefusal, type ActionUnderPolicy } from '../../src/contexts/agents/domain/policy-evaluation';

const policy = (extra: Partial<AgentPolicy> = {}): AgentPolicy => ({
  permissions: ['EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 10_000n, dailyLimit: 20_000n, dailyTransactionLimit: 3, monthlyLimit: 50_000n },
  ...extra,
});
const action = (extra: Partial<ActionUnderPolicy> = {}): ActionUnderPolicy => ({
  type: 'EXECUTE_QUOTE',
  accountId: 'InternalAccount:a',
  amount: 5_000n,
  usage: { dailyTransactionCount: 0, dailySpend: 0n, monthlySpend: 0n },
  ...extra,
});
const ruleOf = (p: AgentPolicy, a: ActionUnderPolicy, paused = false) => policyRefusal(p, paused, a)?.rule ?? null;

describe('policyRefusal: the first rule an action breaks', () => {
  test('allowed within every limit; a limit reached exactly is still allowed', () => {
    expect(ruleOf(policy(), action())).toBeNull();
    expect(ruleOf(policy(), action({ amount: 10_000n, usage: { dailyTransactionCount: 2, dailySpend: 10_000n, monthlySpend: 40_000n } }))).toBeNull();
  });

  test('each rule, in the order checked', () => {
    expect(ruleOf(policy(), action({ amount: 999_999n }), true)).toBe('AGENT_PAUSED');
    expect(ruleOf(policy({ permissions: ['CREATE_TRANSFERS'] }), action())).toBe('PERMISSION');
    expect(ruleOf(policy({ permissions: ['EXECUTE_QUOTES'] }), action({ type: 'TRANSFER_IN' }))).toBe('PERMISSION');
    expect(ruleOf(policy({ accountRestrictions: { allowedAccountIds: ['InternalAccount:b'] } }), action())).toBe('ACCOUNT_NOT_ALLOWED');
    expect(ruleOf(policy(), action({ amount: 10_001n }))).toBe('PER_TRANSACTION_LIMIT');
    expect(ruleOf(policy({ accountRestrictions: { accountRules: [{ accountId: 'InternalAccount:a', perTransactionLimit: 4_000n }] } }), action())).toBe(
      'ACCOUNT_PER_TRANSACTION_LIMIT',
    );
    expect(ruleOf(policy(), action({ usage: { dailyTransactionCount: 3, dailySpend: 0n, monthlySpend: 0n } }))).toBe('DAILY_TRANSACTION_LIMIT');
    expect(ruleOf(policy(), action({ usage: { dailyTransactionCount: 1, dailySpend: 15_001n, monthlySpend: 15_001n } }))).toBe('DAILY_LIMIT');
    expect(ruleOf(policy(), action({ usage: { dailyTransactionCount: 1, dailySpend: 0n, monthlySpend: 45_001n } }))).toBe('MONTHLY_LIMIT');
  });

  test('null and absent limits are no limit', () => {
    const open = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 10_000n, dailyLimit: null, monthlyLimit: null } });
    expect(ruleOf(open, action({ usage: { dailyTransactionCount: 99, dailySpend: 10n ** 12n, monthlySpend: 10n ** 12n } }))).toBeNull();
  });
});

describe('needsApproval', () => {
  test('the default mode, an account rule overriding it either way, and the threshold (strictly over)', () => {
    expect(needsApproval(policy(), 'InternalAccount:a', 5_000n)).toBe(false);
    expect(needsApproval(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), 'InternalAccount:a', 1n)).toBe(true);
    const ruled = (mode: 'AUTO' | 'APPROVAL_REQUIRED', base: 'AUTO' | 'APPROVAL_REQUIRED') =>
      policy({ defaultExecutionMode: base, accountRestrictions: { accountRules: [{ accountId: 'InternalAccount:a', executionMode: mode }] } });
    expect(needsApproval(ruled('APPROVAL_REQUIRED', 'AUTO'), 'InternalAccount:a', 1n)).toBe(true);
    expect(needsApproval(ruled('AUTO', 'APPROVAL_REQUIRED'), 'InternalAccount:a', 1n)).toBe(false);
    expect(needsApproval(ruled('AUTO', 'APPROVAL_REQUIRED'), 'InternalAccount:other', 1n)).toBe(true);
    const threshold = policy({ approvalThresholds: { currency: 'EUR', amount: 5_000n } });
    expect(needsApproval(threshold, 'InternalAccount:a', 5_000n)).toBe(false);
    expect(needsApproval(threshold, 'InternalAccount:a', 5_001n)).toBe(true);
  });
});

test('failureReasonOf: limits are LIMIT_EXCEEDED, other rules QUOTE_EXECUTION_FAILED', () => {
  expect(failureReasonOf('DAILY_LIMIT')).toBe('LIMIT_EXCEEDED');
  expect(failureReasonOf('ACCOUNT_PER_TRANSACTION_LIMIT')).toBe('LIMIT_EXCEEDED');
  expect(failureReasonOf('AGENT_PAUSED')).toBe('QUOTE_EXECUTION_FAILED');
});
