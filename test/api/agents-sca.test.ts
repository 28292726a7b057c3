import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { connectedAgent } from '../support/agent-fixtures';
import { Harness } from '../support/harness';
import { scaCustomer } from '../support/sca/fixtures';
import { SANDBOX_CODE } from '../support/sca/sca-client';

// An agent paying for a customer of an SCA region: the agent's policy judges the execution first
// (the platform's decision, when the policy asks for one), then the customer proves the payment is
// theirs (SCA). The agent's execute is answered with its action either way, and a payment that
// the customer's proof then fails ends the approved action FAILED.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const FUNDS = 100_000;

/** An EU customer (SMS_OTP, logged in), its EUR account funded, a EUR beneficiary, and a connected agent. */
async function setup(mode: 'AUTO' | 'APPROVAL_REQUIRED') {
  const { client: sca, customerId, ...p } = await scaCustomer(h, { loggedIn: true });
  const eur = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=EUR`)).body.data[0].id as string;
  expect((await p.api.post(`/sandbox/internal-accounts/${eur}/fund`, { amount: FUNDS })).status).toBe(200);
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  expect(bank.status).toBe(201);
  const policy = {
    permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'VIEW_TRANSACTIONS'],
    defaultExecutionMode: mode,
    spendingLimits: { currency: 'EUR', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10, monthlyLimit: null },
  };
  const { agentId, agent } = await connectedAgent(h, p.api, customerId, policy, 'Rent bot');
  const quote = await agent.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: eur },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  expect([quote.status, quote.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
  return {
    p,
    sca,
    eur,
    agentId,
    agent,
    quote: quote.body as { id: string; transactionId: string; totalSendingAmount: number },
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const execute = (s: Setup) => s.agent.post(`/agents/me/quotes/${s.quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${s.quote.id}` });
const authorize = (s: Setup, code = SANDBOX_CODE) => s.p.api.post(`/quotes/${s.quote.id}/authorize`, { code });
const transactionOf = (s: Setup) => s.p.api.get(`/transactions/${s.quote.transactionId}`).then((r) => r.body);
const actionOf = (s: Setup, actionId: string) => s.agent.get(`/agents/me/actions/${actionId}`).then((r) => r.body as { id: string; status: string });
const balance = async (s: Setup) =>
  (await s.p.api.get('/customers/internal-accounts?limit=100')).body.data.find((a: { id: string }) => a.id === s.eur).balance.amount as number;
/** The customer authorizes with the sandbox code; the payout completes and the funds leave once. */
async function authorizedToCompletion(s: Setup) {
  const authorized = await authorize(s);
  expect([authorized.status, authorized.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  await eventually(
    () => transactionOf(s),
    (t) => t.status === 'COMPLETED',
  );
  expect(await balance(s)).toBe(FUNDS - s.quote.totalSendingAmount);
}
const actionHookStatuses = (actionId: string) =>
  h.receiver.received.filter((w) => String(w.body.type).startsWith('AGENT_ACTION.') && w.body.data?.id === actionId).map((w) => w.body.type as string);

test('AUTO: the execute answers the APPROVED action, the payment waits for the customer; authorized, it completes', async () => {
  const s = await setup('AUTO');
  const executed = await execute(s);
  expect([executed.status, executed.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  expect(executed.body).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED', quote: { id: s.quote.id } });
  expect(await transactionOf(s)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
  expect(await balance(s)).toBe(FUNDS);
  // The policy's approval is announced though the SCA gate held the payment in the same execution.
  await h.receiver.waitFor(() => actionHookStatuses(executed.body.id).includes('AGENT_ACTION.APPROVED'));

  await authorizedToCompletion(s);
  expect((await actionOf(s, executed.body.id)).status).toBe('APPROVED');
  expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
});

test("APPROVAL_REQUIRED: the platform approves first, then the customer's proof releases it", async () => {
  const s = await setup('APPROVAL_REQUIRED');
  const executed = await execute(s);
  expect([executed.status, executed.body.status]).toEqual([200, 'PENDING_APPROVAL']);
  expect(await transactionOf(s)).toMatchObject({ status: 'PENDING' });
  // The customer cannot authorize what the platform has not approved yet.
  expect((await authorize(s)).status).toBe(409);

  const approved = await s.p.api.post(`/agents/${s.agentId}/actions/${executed.body.id}/approve`);
  expect([approved.status, approved.body.status]).toEqual([200, 'APPROVED']);
  await eventually(
    () => transactionOf(s),
    (t) => t.status === 'PENDING_AUTHORIZATION',
  );
  expect(await balance(s)).toBe(FUNDS);
  await authorizedToCompletion(s);
  await h.receiver.waitFor(() => actionHookStatuses(executed.body.id).includes('AGENT_ACTION.APPROVED'));
  expect(actionHookStatuses(executed.body.id)).toEqual(['AGENT_ACTION.PENDING_APPROVAL', 'AGENT_ACTION.APPROVED']);
});

test("approved through POST /transactions/{id}/approve, the customer's challenge is issued too and releases it", async () => {
  const s = await setup('APPROVAL_REQUIRED');
  const executed = await execute(s);
  expect(executed.body.status).toBe('PENDING_APPROVAL');
  const approved = await s.p.api.post(`/transactions/${s.quote.transactionId}/approve`, {});
  expect([approved.status, approved.body.status]).toEqual([200, 'PENDING_AUTHORIZATION']);
  expect((await actionOf(s, executed.body.id)).status).toBe('APPROVED');
  await authorizedToCompletion(s);
});

test("approved, then the customer's proof fails: the payment FAILED SCA_NOT_COMPLETED, the action FAILED, nothing moved", async () => {
  const s = await setup('AUTO');
  const executed = await execute(s);
  expect(executed.body.status).toBe('APPROVED');
  for (let i = 0; i < 5; i++) expect((await authorize(s, '000000')).status).toBe(400);
  const failed = await eventually(
    () => transactionOf(s),
    (t) => t.status === 'FAILED',
  );
  expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
  await eventually(
    () => actionOf(s, executed.body.id),
    (a) => a.status === 'FAILED',
  );
  await h.receiver.waitFor(() => actionHookStatuses(executed.body.id).includes('AGENT_ACTION.FAILED'));
  expect(await balance(s)).toBe(FUNDS);
  expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
});
