import { randomUUID } from 'node:crypto';
import { agentActionDecider } from '../../src/contexts/agents/deciders/agent-action-decider';
import { agentPolicyGate } from '../../src/contexts/agents/gates/agent-policy';
import { AGENT_POLICY_GATE } from '../../src/contexts/agents/domain/agent-approvals';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { Transaction } from '../../src/contexts/payments/entities';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { connectedAgent } from '../support/agent-fixtures';
import { type Api, Harness } from '../support/harness';

// How an agent's pending action ends besides the platform's own routes: its hold expires (the
// worker here runs the policy gate with a 3-second hold instead of a day's), or the platform
// decides it through POST /transactions/{id}/approve|reject (the decider those routes ask).

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({
    executionGates: [...EXECUTION_GATES.filter((gate) => gate.name !== AGENT_POLICY_GATE), agentPolicyGate({ holdSeconds: 3 })],
  });
});
afterAll(async () => {
  await h.stop();
});

const FUNDS = 100_000;

/** A funded customer's agent whose policy asks for every action's approval, and its first action, held. */
async function heldAction() {
  const p = await h.platform();
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID()}`, fullName: 'Ada Agentowner' });
  const customerId = customer.body.id as string;
  const usd = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDS })).status).toBe(200);
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  const { agentId, agent } = await connectedAgent(
    h,
    p.api,
    customerId,
    {
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
    },
    'Payroll bot',
  );
  const quote = await agent.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  const held = await agent.post(`/agents/me/quotes/${quote.body.id}/execute`);
  expect([held.status, held.body.status]).toEqual([200, 'PENDING_APPROVAL']);
  return { p, agent, usd, agentId, action: held.body, transactionId: quote.body.transactionId as string };
}

const balanceOf = async (api: Api, accountId: string) =>
  (await api.get(`/customers/internal-accounts?limit=100`)).body.data.find((a: { id: string }) => a.id === accountId).balance.amount as number;
const actionHooks = (actionId: string) => h.receiver.received.filter((w) => w.body.data?.id === actionId).map((w) => w.body.type as string);

/** What the payments context hands a decider for the transaction. */
async function pendingTransaction(transactionId: string) {
  const em = h.orm.em.fork();
  const t = await em.findOneOrFail(Transaction, { id: transactionId });
  return {
    em,
    temporal: h.temporal,
    decisionKey: `key-${randomUUID()}`,
    transaction: { id: t.id, platformId: t.platformId, type: t.type, status: t.status, quoteId: null, agentId: t.agentId ?? null },
  };
}

test('nobody decides in time: the payment EXPIRES with nothing moved, the action FAILS with its webhook, a late approval is 409', async () => {
  const { p, agent, usd, agentId, action, transactionId } = await heldAction();
  await eventually(
    () => p.api.get(`/transactions/${transactionId}`).then((r) => r.body),
    (t) => t.status === 'EXPIRED',
    30_000,
  );
  const ended = await eventually(
    () => agent.get(`/agents/me/actions/${action.id}`).then((r) => r.body),
    (a) => a.status === 'FAILED',
  );
  expect(ended.transaction).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
  await h.receiver.waitFor(() => actionHooks(action.id).includes('AGENT_ACTION.FAILED'));
  expect(actionHooks(action.id)).toEqual(['AGENT_ACTION.PENDING_APPROVAL', 'AGENT_ACTION.FAILED']);
  const late = await p.api.post(`/agents/${agentId}/actions/${action.id}/approve`);
  expect([late.status, late.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
  expect(await balanceOf(p.api, usd)).toBe(FUNDS);
}, 60_000);

describe('the decider of POST /transactions/{id}/approve|reject', () => {
  test('waits for a transaction an agent action holds, approves it once, then no longer waits for it', async () => {
    const { p, usd, transactionId } = await heldAction();
    const context = await pendingTransaction(transactionId);
    expect(await agentActionDecider.waitsFor(context.em, context.transaction)).toBe(true);
    await agentActionDecider.approve(context, {});
    await eventually(
      () => p.api.get(`/transactions/${transactionId}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
    );
    expect(await balanceOf(p.api, usd)).toBe(FUNDS - 10_000);
    const after = await pendingTransaction(transactionId);
    expect(await agentActionDecider.waitsFor(after.em, after.transaction)).toBe(false);
  });

  test('rejects with the reason: the action REJECTED, nothing moved', async () => {
    const { p, agent, usd, action, transactionId } = await heldAction();
    const context = await pendingTransaction(transactionId);
    await agentActionDecider.reject(context, { reason: 'too much' });
    const rejected = await eventually(
      () => agent.get(`/agents/me/actions/${action.id}`).then((r) => r.body),
      (a) => a.status === 'REJECTED',
    );
    expect(rejected.rejectionReason).toBe('too much');
    expect(await balanceOf(p.api, usd)).toBe(FUNDS);
  });

  test('does not wait for a payment no agent made', async () => {
    const { transactionId } = await heldAction();
    const context = await pendingTransaction(transactionId);
    expect(await agentActionDecider.waitsFor(context.em, { ...context.transaction, agentId: null })).toBe(false);
  });
});
