import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { Quote } from '../../src/contexts/payments/entities';
import { executionRequestKey } from '../../src/contexts/payments/domain/execution-attempts';
import { runExecutionStep } from '../../src/contexts/payments/services/quote-execution';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { Api, BASE, Harness } from '../support/harness';

// Agents, part two: an agent's quotes, their execution and its transfers, judged by its policy
// (permissions, accounts, limits) in the execution's database transaction, and held for the
// platform's approval when the policy asks for one.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const ALL = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const FUNDS = 1_000_000;

interface PolicyOptions {
  permissions?: string[];
  mode?: 'AUTO' | 'APPROVAL_REQUIRED';
  limits?: Record<string, unknown>;
  extra?: (accounts: { usd: string; eur: string }) => Record<string, unknown>;
}

/** A platform, a funded customer with a EUR bank account and a validated US one, and a connected agent with the policy. */
async function setup(options: PolicyOptions & { embeddedWallets?: boolean } = {}) {
  const p = await h.platform(options.embeddedWallets ? { embeddedWalletsSupported: true } : {});
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID()}`, fullName: 'Ada Agentowner' });
  const customerId = customer.body.id as string;
  const accounts = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data as {
    id: string;
    balance: { currency: { code: string } };
  }[];
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const eur = accounts.find((a) => a.balance.currency.code === 'EUR')!.id;
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDS })).status).toBe(200);
  const eurBank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  const usBank = await p.api.post('/customers/external-accounts', { customerId, ...usdAccount('123456999') });
  expect([eurBank.status, usBank.status]).toEqual([201, 201]);
  await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: usBank.body.id }, { bankValidation: 'PASSED' });
  const policy = {
    permissions: options.permissions ?? ALL,
    defaultExecutionMode: options.mode ?? 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10, monthlyLimit: null, ...options.limits },
    ...(options.extra?.({ usd, eur }) ?? {}),
  };
  const created = await p.api.post('/agents', { name: 'Payroll bot', customerId, policy });
  expect([created.status, created.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
  const redeemed = await request(h.app).post(`${BASE}/agents/device-codes/${encodeURIComponent(created.body.deviceCode.code)}/redeem`);
  expect(redeemed.status).toBe(200);
  const agent = new Api(h.app, `Bearer ${redeemed.body.accessToken}`);
  return { p, customerId, usd, eur, eurBank: eurBank.body.id as string, usBank: usBank.body.id as string, agentId: created.body.agent.id as string, agent };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** The agent's quote paying `amount` USD to the customer's EUR bank account. */
async function agentQuote(s: Setup, amount = 10_000, headers: Record<string, string> = {}) {
  const res = await s.agent.post(
    '/agents/me/quotes',
    {
      source: { sourceType: 'ACCOUNT', accountId: s.usd },
      destination: { destinationType: 'ACCOUNT', accountId: s.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    },
    headers,
  );
  expect([res.status, res.text.slice(0, 400)]).toEqual([201, expect.any(String)]);
  return res.body as { id: string; transactionId: string; totalSendingAmount: number };
}

const execute = (s: Setup, quoteId: string, key = `exec-${quoteId}`) =>
  s.agent.post(`/agents/me/quotes/${quoteId}/execute`, undefined, { 'Idempotency-Key': key });
const balanceOf = async (s: Setup, accountId = s.usd) =>
  (await s.p.api.get(`/customers/internal-accounts?limit=100`)).body.data.find((a: { id: string }) => a.id === accountId).balance.amount as number;
const transactionOf = (s: Setup, id: string) => s.p.api.get(`/transactions/${id}`).then((r) => r.body);
const actionHooks = (actionId: string) =>
  h.receiver.received.filter((w) => String(w.body.type).startsWith('AGENT_ACTION.') && w.body.data?.id === actionId).map((w) => w.body);
const approve = (s: Setup, actionId: string) => s.p.api.post(`/agents/${s.agentId}/actions/${actionId}/approve`);
const reject = (s: Setup, actionId: string, reason?: string) => s.p.api.post(`/agents/${s.agentId}/actions/${actionId}/reject`, reason ? { reason } : {});
const completed = (s: Setup, transactionId: string) =>
  eventually(
    () => transactionOf(s, transactionId),
    (t) => t.status === 'COMPLETED',
  );

test("an embedded wallet pays only with its owner's signature: an agent's quote or transfer-out from one is 400 on its source, nothing recorded", async () => {
  const s = await setup({ embeddedWallets: true });
  const accounts = (await s.p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(s.customerId)}&type=EMBEDDED_WALLET`)).body.data;
  const wallet = accounts[0].id as string;
  const quote = await s.agent.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: wallet },
    destination: { destinationType: 'ACCOUNT', accountId: s.eurBank },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000,
  });
  expect([quote.status, quote.body.code, quote.body.details?.errors?.[0]?.field]).toEqual([400, 'INVALID_INPUT', 'source.accountId']);
  const out = await s.agent.post('/agents/me/transfer-out', { source: { accountId: wallet }, destination: { accountId: s.usBank }, amount: 100 });
  expect([out.status, out.body.code, out.body.details?.errors?.[0]?.field]).toEqual([400, 'INVALID_INPUT', 'source.accountId']);
  expect(await h.orm.em.fork().count(Quote, { agentId: s.agentId })).toBe(0);
});

describe('the policy refuses what it does not allow (403 FORBIDDEN, details.rule; nothing recorded, nothing moved)', () => {
  test('each permission: CREATE_QUOTES, EXECUTE_QUOTES, CREATE_TRANSFERS', async () => {
    const noQuotes = await setup({ permissions: ['EXECUTE_QUOTES', 'CREATE_TRANSFERS'] });
    const refused = await noQuotes.agent.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: noQuotes.usd },
      destination: { destinationType: 'ACCOUNT', accountId: noQuotes.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);

    const noExecute = await setup({ permissions: ['CREATE_QUOTES'] });
    const quote = await agentQuote(noExecute);
    const executed = await execute(noExecute, quote.id);
    expect([executed.status, executed.body.code]).toEqual([403, 'FORBIDDEN']);
    const out = await noExecute.agent.post('/agents/me/transfer-out', {
      source: { accountId: noExecute.usd },
      destination: { accountId: noExecute.usBank },
      amount: 100,
    });
    const into = await noExecute.agent.post('/agents/me/transfer-in', {
      source: { accountId: noExecute.usBank },
      destination: { accountId: noExecute.usd },
      amount: 100,
    });
    expect([out.status, out.body.code, into.status, into.body.code]).toEqual([403, 'FORBIDDEN', 403, 'FORBIDDEN']);
    expect(await balanceOf(noExecute)).toBe(FUNDS);
    expect((await noExecute.agent.get('/agents/me/actions')).body.data).toEqual([]);
  });

  test('an account the restrictions leave out is 403; another customer’s account is 404', async () => {
    const s = await setup({ extra: ({ eur }) => ({ accountRestrictions: { allowedAccountIds: [eur] } }) });
    const refused = await s.agent.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: s.usd },
      destination: { destinationType: 'ACCOUNT', accountId: s.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect([refused.status, refused.body.code, refused.body.details?.rule]).toEqual([403, 'FORBIDDEN', 'ACCOUNT_NOT_ALLOWED']);
    const out = await s.agent.post('/agents/me/transfer-out', { source: { accountId: s.usd }, destination: { accountId: s.usBank }, amount: 100 });
    expect([out.status, out.body.details?.rule]).toEqual([403, 'ACCOUNT_NOT_ALLOWED']);

    // Another customer of the same platform: its accounts are not found to this agent.
    const other = await s.p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `o-${randomUUID()}`, fullName: 'Other One' });
    const theirs = (await s.p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(other.body.id)}&currency=USD`)).body.data[0].id;
    const open = await setup();
    const foreign = await open.agent.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: theirs },
      destination: { destinationType: 'ACCOUNT', accountId: open.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'NOT_FOUND']);
    const foreignDestination = await open.agent.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: open.usd },
      destination: { destinationType: 'ACCOUNT', accountId: s.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect([foreignDestination.status, foreignDestination.body.code]).toEqual([404, 'NOT_FOUND']);
    const foreignTransfer = await open.agent.post('/agents/me/transfer-out', {
      source: { accountId: open.usd },
      destination: { accountId: s.usBank },
      amount: 100,
    });
    expect([foreignTransfer.status, foreignTransfer.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  test('another agent’s quote, and another platform’s agent on this platform’s ids, are 404', async () => {
    const a = await setup();
    const b = await setup();
    const quote = await agentQuote(a);
    const byB = await execute(b, quote.id);
    expect([byB.status, byB.body.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    // The platform's own quote is not the agent's either.
    const platformQuote = await a.p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: a.usd },
      destination: { destinationType: 'ACCOUNT', accountId: a.eurBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    const ofPlatform = await execute(a, platformQuote.body.id);
    expect([ofPlatform.status, ofPlatform.body.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    const bOnA = await b.agent.post('/agents/me/transfer-out', { source: { accountId: a.usd }, destination: { accountId: a.usBank }, amount: 100 });
    expect([bOnA.status, bOnA.body.code]).toEqual([404, 'NOT_FOUND']);
    // Platform B deciding A's action: not found.
    const pending = await setup({ mode: 'APPROVAL_REQUIRED' });
    const held = await execute(pending, (await agentQuote(pending)).id);
    const byOtherPlatform = await b.p.api.post(`/agents/${pending.agentId}/actions/${held.body.id}/approve`);
    expect([byOtherPlatform.status, byOtherPlatform.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(await balanceOf(a)).toBe(FUNDS);
  });

  test('per-transaction limit, and an account rule’s own limit', async () => {
    const s = await setup({ limits: { perTransactionLimit: 5_000 } });
    const refused = await execute(s, (await agentQuote(s, 10_000)).id);
    expect([refused.status, refused.body.code, refused.body.details?.rule]).toEqual([403, 'FORBIDDEN', 'PER_TRANSACTION_LIMIT']);
    const ruled = await setup({ extra: ({ usd }) => ({ accountRestrictions: { accountRules: [{ accountId: usd, perTransactionLimit: 5_000 }] } }) });
    const byRule = await execute(ruled, (await agentQuote(ruled, 10_000)).id);
    expect([byRule.status, byRule.body.details?.rule]).toEqual([403, 'ACCOUNT_PER_TRANSACTION_LIMIT']);
    const within = await execute(ruled, (await agentQuote(ruled, 4_000)).id);
    expect([within.status, within.body.status]).toEqual([200, 'APPROVED']);
    expect(await balanceOf(s)).toBe(FUNDS);
    expect((await s.agent.get('/agents/me/actions')).body.data).toEqual([]);
  });

  test('daily spend, monthly spend and the daily count, from the agent’s actions', async () => {
    const daily = await setup({ limits: { dailyLimit: 15_000 } });
    expect((await execute(daily, (await agentQuote(daily, 10_000)).id)).status).toBe(200);
    const overDaily = await execute(daily, (await agentQuote(daily, 10_000)).id);
    expect([overDaily.status, overDaily.body.details?.rule]).toEqual([403, 'DAILY_LIMIT']);
    expect((await execute(daily, (await agentQuote(daily, 5_000)).id)).status).toBe(200);
    const me = (await daily.agent.get('/agents/me')).body;
    expect(me.usage).toMatchObject({ dailyTransactionCount: 2, dailySpend: 15_000, monthlySpend: 15_000 });

    const monthly = await setup({ limits: { dailyLimit: null, monthlyLimit: 15_000 } });
    expect((await execute(monthly, (await agentQuote(monthly, 10_000)).id)).status).toBe(200);
    const overMonthly = await execute(monthly, (await agentQuote(monthly, 10_000)).id);
    expect([overMonthly.status, overMonthly.body.details?.rule]).toEqual([403, 'MONTHLY_LIMIT']);

    const counted = await setup({ limits: { dailyTransactionLimit: 1 } });
    expect((await execute(counted, (await agentQuote(counted, 1_000)).id)).status).toBe(200);
    const overCount = await execute(counted, (await agentQuote(counted, 1_000)).id);
    expect([overCount.status, overCount.body.details?.rule]).toEqual([403, 'DAILY_TRANSACTION_LIMIT']);
  });

  test('a limit reached by two concurrent executions: exactly one passes', async () => {
    const s = await setup({ limits: { dailyLimit: 15_000 } });
    const [q1, q2] = [await agentQuote(s, 10_000), await agentQuote(s, 10_000)];
    const answers = await Promise.all([execute(s, q1.id), execute(s, q2.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(answers.find((a) => a.status === 403)!.body.details?.rule).toBe('DAILY_LIMIT');
    const passed = answers.find((a) => a.status === 200)!.body;
    await completed(s, passed.transaction.id);
    expect(await balanceOf(s)).toBe(FUNDS - 10_000);
    expect((await s.agent.get('/agents/me/actions')).body.data).toHaveLength(1);
  });

  test('a paused agent acts no more', async () => {
    const s = await setup();
    const quote = await agentQuote(s);
    expect((await s.p.api.patch(`/agents/${s.agentId}`, { isPaused: true })).status).toBe(200);
    const refused = await execute(s, quote.id);
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(await balanceOf(s)).toBe(FUNDS);
  });
});

describe('AUTO: the action runs at once', () => {
  test('the quote is executed once: action APPROVED with its quote and transaction, the ledger moved once, AGENT_ACTION.APPROVED', async () => {
    const s = await setup();
    const quote = await agentQuote(s);
    expect((await s.agent.get(`/agents/me/quotes/${quote.id}`)).body.id).toBe(quote.id);
    const executed = await execute(s, quote.id);
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({
      agentId: s.agentId,
      customerId: s.customerId,
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      quote: { id: quote.id },
      transaction: { id: quote.transactionId },
    });
    // A retry of the request: the same action; another request: 409.
    const retried = await execute(s, quote.id);
    expect([retried.status, retried.body.id]).toEqual([200, executed.body.id]);
    expect((await execute(s, quote.id, 'another')).status).toBe(409);
    const transaction = await completed(s, quote.transactionId);
    expect(transaction.agentId ?? s.agentId).toBe(s.agentId);
    expect(await balanceOf(s)).toBe(FUNDS - quote.totalSendingAmount);
    await h.receiver.waitFor(() => actionHooks(executed.body.id).length > 0);
    expect(actionHooks(executed.body.id).map((hook) => [hook.type, hook.data.status])).toEqual([['AGENT_ACTION.APPROVED', 'APPROVED']]);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('an agent’s Idempotency-Key is its own: the same key from its platform is another request', async () => {
    const s = await setup();
    const key = `k-${randomUUID()}`;
    const mine = await agentQuote(s, 1_000, { 'Idempotency-Key': key });
    const again = await agentQuote(s, 1_000, { 'Idempotency-Key': key });
    expect(again.id).toBe(mine.id);
    const platforms = await s.p.api.post(
      '/quotes',
      {
        source: { sourceType: 'ACCOUNT', accountId: s.usd },
        destination: { destinationType: 'ACCOUNT', accountId: s.eurBank },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 2_000,
      },
      { 'Idempotency-Key': key },
    );
    expect(platforms.status).toBe(201);
    expect(platforms.body.id).not.toBe(mine.id);
  });

  test("an execution the workflow never heard of (its update lost with the task that ran it) is given to the workflow by the agent's retry: the payment completes", async () => {
    const s = await setup();
    const quote = await agentQuote(s);
    // What a workflow task the server lost leaves behind: the execution step committed (the policy judged it), the workflow still waiting.
    const requestKey = executionRequestKey(`agent:${s.agentId}:exec-lost`);
    const step = await runExecutionStep(h.orm.em.fork(), { quoteId: quote.id, requestKey }, EXECUTION_GATES);
    expect(step).toMatchObject({ alreadyExecuted: false, transactionId: quote.transactionId });
    expect(await transactionOf(s, quote.transactionId)).toMatchObject({ status: 'PROCESSING' });
    // The agent's retry of that request.
    const retried = await execute(s, quote.id, 'exec-lost');
    expect([retried.status, retried.body.status, retried.body.transaction?.id]).toEqual([200, 'APPROVED', quote.transactionId]);
    const done = await eventually(
      () => transactionOf(s, quote.transactionId),
      (t) => t.status === 'COMPLETED',
      20_000,
    );
    expect(done.status).toBe('COMPLETED');
    expect(await balanceOf(s)).toBe(FUNDS - quote.totalSendingAmount);
    // Another request is still a repeat.
    expect((await execute(s, quote.id, 'another')).status).toBe(409);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('transfers out and in: TRANSFER_OUT / TRANSFER_IN actions with their transferDetails, executed at once', async () => {
    const s = await setup();
    const out = await s.agent.post('/agents/me/transfer-out', { source: { accountId: s.usd }, destination: { accountId: s.usBank }, amount: 2_500 });
    expect([out.status, out.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
    expect(out.body).toMatchObject({
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: { amount: 2_500, currency: 'USD', sourceAccountId: s.usd, destinationAccountId: s.usBank },
      transaction: { type: 'OUTGOING' },
    });
    await completed(s, out.body.transaction.id);
    const into = await s.agent.post('/agents/me/transfer-in', { source: { accountId: s.usBank }, destination: { accountId: s.usd }, amount: 3_000 });
    expect([into.status, into.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
    expect(into.body).toMatchObject({
      status: 'APPROVED',
      type: 'TRANSFER_IN',
      transferDetails: { amount: 3_000, currency: 'USD', sourceAccountId: s.usBank, destinationAccountId: s.usd },
      transaction: { type: 'INCOMING' },
    });
    expect((await s.agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 2 });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });
});

describe('APPROVAL_REQUIRED and thresholds: the action waits for the platform', () => {
  async function pending(options: PolicyOptions = { mode: 'APPROVAL_REQUIRED' }, amount = 10_000) {
    const s = await setup(options);
    const quote = await agentQuote(s, amount);
    const held = await execute(s, quote.id);
    expect([held.status, held.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
    return { s, quote, action: held.body };
  }

  test('held PENDING_APPROVAL: nothing moved, the transaction PENDING, AGENT_ACTION.PENDING_APPROVAL, listed in the approvals', async () => {
    const { s, quote, action } = await pending();
    expect(action).toMatchObject({ status: 'PENDING_APPROVAL', type: 'EXECUTE_QUOTE', quote: { id: quote.id, transactionId: quote.transactionId } });
    expect(await transactionOf(s, quote.transactionId)).toMatchObject({ status: 'PENDING' });
    expect(await balanceOf(s)).toBe(FUNDS);
    await h.receiver.waitFor(() => actionHooks(action.id).length > 0);
    expect(actionHooks(action.id)[0]).toMatchObject({
      type: 'AGENT_ACTION.PENDING_APPROVAL',
      data: { id: action.id, status: 'PENDING_APPROVAL', agentId: s.agentId },
    });
    const approvals = (await s.p.api.get('/agents/approvals')).body.data;
    expect(approvals.map((a: { id: string }) => a.id)).toContain(action.id);
    // The pending action counts: another execution over the daily limit is refused meanwhile.
    expect((await s.agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: quote.totalSendingAmount });
  });

  test('an amount over the approval threshold is held; one under it runs', async () => {
    const options: PolicyOptions = { extra: () => ({ approvalThresholds: { currency: 'USD', amount: 5_000 } }) };
    const { action } = await pending(options, 10_000);
    expect(action.status).toBe('PENDING_APPROVAL');
    const s = await setup(options);
    const under = await execute(s, (await agentQuote(s, 4_000)).id);
    expect(under.body.status).toBe('APPROVED');
  });

  test('an account rule APPROVAL_REQUIRED overrides AUTO', async () => {
    const { action } = await pending({
      extra: ({ usd }) => ({ accountRestrictions: { accountRules: [{ accountId: usd, executionMode: 'APPROVAL_REQUIRED' }] } }),
    });
    expect(action.status).toBe('PENDING_APPROVAL');
  });

  test('the action shows no transaction while PENDING_APPROVAL or REJECTED (its answer, its webhook, every read of it); once approved it does', async () => {
    const options: PolicyOptions = { extra: () => ({ approvalThresholds: { currency: 'USD', amount: 5_000 } }) };
    const { s, quote, action } = await pending(options, 10_000);
    expect(action.status).toBe('PENDING_APPROVAL');
    const reads = async (actionId: string) => [
      (await s.agent.get(`/agents/me/actions/${actionId}`)).body,
      (await s.agent.get('/agents/me/actions')).body.data.find((a: { id: string }) => a.id === actionId),
      (await s.p.api.get('/agents/approvals')).body.data.find((a: { id: string }) => a.id === actionId),
    ];
    for (const view of [action, ...(await reads(action.id))]) {
      expect(view).toMatchObject({ id: action.id, status: 'PENDING_APPROVAL', quote: { transactionId: quote.transactionId } });
      expect(view).not.toHaveProperty('transaction');
    }
    await h.receiver.waitFor(() => actionHooks(action.id).length > 0);
    expect(actionHooks(action.id)[0]!.data).not.toHaveProperty('transaction');

    const rejected = await reject(s, action.id, 'no');
    expect([rejected.status, rejected.body.status]).toEqual([200, 'REJECTED']);
    expect(rejected.body).not.toHaveProperty('transaction');
    await h.receiver.waitFor(() => actionHooks(action.id).length === 2);
    expect(actionHooks(action.id)[1]).toMatchObject({ type: 'AGENT_ACTION.REJECTED' });
    expect(actionHooks(action.id)[1]!.data).not.toHaveProperty('transaction');
    for (const view of (await reads(action.id)).slice(0, 2)) {
      expect(view.status).toBe('REJECTED');
      expect(view).not.toHaveProperty('transaction');
    }

    const next = await execute(s, (await agentQuote(s, 10_000)).id);
    expect(next.body.status).toBe('PENDING_APPROVAL');
    const approved = await approve(s, next.body.id);
    expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { id: next.body.quote.transactionId } });
    expect((await s.agent.get(`/agents/me/actions/${next.body.id}`)).body).toMatchObject({ transaction: { id: next.body.quote.transactionId } });
  });

  test('approve: executed once, APPROVED, the ledger clean; approved again is 409; concurrent approvals are one decision', async () => {
    const { s, quote, action } = await pending();
    const answers = await Promise.all([approve(s, action.id), approve(s, action.id)]);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of answers) {
      if (a.status === 200) expect(a.body).toMatchObject({ id: action.id, status: 'APPROVED', transaction: { id: quote.transactionId } });
      else expect([a.status, a.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    }
    const again = await approve(s, action.id);
    expect([again.status, again.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    const rejected = await reject(s, action.id);
    expect([rejected.status, rejected.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    await completed(s, quote.transactionId);
    expect(await balanceOf(s)).toBe(FUNDS - quote.totalSendingAmount);
    await h.receiver.waitFor(() => actionHooks(action.id).length === 2);
    expect(actionHooks(action.id).map((hook) => hook.type)).toEqual(['AGENT_ACTION.PENDING_APPROVAL', 'AGENT_ACTION.APPROVED']);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('reject with a reason: REJECTED, the transaction FAILED with nothing moved, AGENT_ACTION.REJECTED; no later approval', async () => {
    const { s, quote, action } = await pending();
    const rejected = await reject(s, action.id, 'not this month');
    expect([rejected.status, rejected.body.status, rejected.body.rejectionReason]).toEqual([200, 'REJECTED', 'not this month']);
    const failed = await eventually(
      () => transactionOf(s, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('QUOTE_EXECUTION_FAILED');
    await h.receiver.waitFor(() => actionHooks(action.id).length === 2);
    expect(actionHooks(action.id)[1]).toMatchObject({ type: 'AGENT_ACTION.REJECTED', data: { status: 'REJECTED', rejectionReason: 'not this month' } });
    expect((await s.agent.get(`/agents/me/actions/${action.id}`)).body).toMatchObject({ status: 'REJECTED', rejectionReason: 'not this month' });
    expect((await approve(s, action.id)).status).toBe(409);
    expect(await balanceOf(s)).toBe(FUNDS);
  });

  test('approved after the limit was lowered: the policy judges it again, the action FAILED, the transaction FAILED (LIMIT_EXCEEDED)', async () => {
    const { s, quote, action } = await pending({ mode: 'APPROVAL_REQUIRED', limits: { dailyLimit: 15_000 } });
    expect((await s.p.api.patch(`/agents/${s.agentId}/policy`, { spendingLimits: { dailyLimit: 5_000 } })).status).toBe(200);
    const approved = await approve(s, action.id);
    expect([approved.status, approved.body.status]).toEqual([200, 'FAILED']);
    const failed = await eventually(
      () => transactionOf(s, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('LIMIT_EXCEEDED');
    await h.receiver.waitFor(() => actionHooks(action.id).length === 2);
    expect(actionHooks(action.id)[1]).toMatchObject({ type: 'AGENT_ACTION.FAILED', data: { status: 'FAILED' } });
    expect(await balanceOf(s)).toBe(FUNDS);
  });

  test('approved after the agent was paused: FAILED', async () => {
    const { s, quote, action } = await pending();
    expect((await s.p.api.patch(`/agents/${s.agentId}`, { isPaused: true })).status).toBe(200);
    expect((await approve(s, action.id)).body.status).toBe('FAILED');
    const failed = await eventually(
      () => transactionOf(s, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('QUOTE_EXECUTION_FAILED');
    await h.receiver.waitFor(() => actionHooks(action.id).length === 2);
    expect(actionHooks(action.id)[1]).toMatchObject({ type: 'AGENT_ACTION.FAILED', data: { status: 'FAILED' } });
  });

  test('an EXECUTE_QUOTE approved after its quote expired: FAILED (QUOTE_EXPIRED), nothing moved', async () => {
    const { s, quote, action } = await pending();
    await h.orm.em.fork().nativeUpdate(Quote, { id: quote.id }, { expiresAt: new Date(Date.now() - 1_000) });
    const approved = await approve(s, action.id);
    expect([approved.status, approved.body.status]).toEqual([200, 'FAILED']);
    const failed = await eventually(
      () => transactionOf(s, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('QUOTE_EXPIRED');
    expect(await balanceOf(s)).toBe(FUNDS);
  });

  test('a held transfer-out is approved the same way', async () => {
    const s = await setup({ mode: 'APPROVAL_REQUIRED' });
    const out = await s.agent.post('/agents/me/transfer-out', { source: { accountId: s.usd }, destination: { accountId: s.usBank }, amount: 2_500 });
    expect([out.status, out.body.status, out.body.type]).toEqual([201, 'PENDING_APPROVAL', 'TRANSFER_OUT']);
    expect(await balanceOf(s)).toBe(FUNDS);
    expect(out.body).not.toHaveProperty('transaction');
    const approved = await approve(s, out.body.id);
    expect([approved.status, approved.body.status]).toEqual([200, 'APPROVED']);
    await completed(s, approved.body.transaction.id);
    expect(await balanceOf(s)).toBeLessThan(FUNDS);
  });

  test('only platform credentials decide: an agent’s bearer token on approve is refused', async () => {
    const { s, action } = await pending();
    const byAgent = await s.agent.post(`/agents/${s.agentId}/actions/${action.id}/approve`);
    expect(byAgent.status).toBe(401);
    expect(await balanceOf(s)).toBe(FUNDS);
  });
});
