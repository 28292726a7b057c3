import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { DEFAULT_ABUSE_LIMITS } from '../../src/config';
import { Agent, AgentAccessToken, AgentAction, AgentDeviceCode, AgentQuote } from '../../src/contexts/agents/entities';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { logger } from '../../src/logger';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Api, BASE, Harness } from '../support/harness';

// Agents, part one: management by the platform, installation by device code, the agent's bearer
// token and its read-only and external-account operations under /agents/me.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
const ALL = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const policy = (permissions: string[] = ALL, extra: Record<string, unknown> = {}) => ({
  permissions,
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10, monthlyLimit: null },
  ...extra,
});
const bearer = (token: string) => new Api(h.app, `Bearer ${token}`);
const raw = (method: 'get' | 'post' | 'patch' | 'delete', path: string, authorization?: string, app = h.app) => {
  const r = request(app)[method](`${BASE}${path}`);
  return authorization ? r.set('Authorization', authorization) : r;
};

async function customer(p: Platform, name = 'Ada Agentowner') {
  const res = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID().slice(0, 8)}`, fullName: name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function usdAccountOf(p: Platform, customerId: string) {
  const res = await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
  return res.body.data[0].id as string;
}

async function createAgent(p: Platform, customerId: string, permissions: string[] = ALL, extra: Record<string, unknown> = {}) {
  const res = await p.api.post('/agents', { name: 'Payroll bot', customerId, policy: policy(permissions, extra) });
  expect([res.status, res.text.slice(0, 300)]).toEqual([201, expect.any(String)]);
  return { agentId: res.body.agent.id as string, code: res.body.deviceCode.code as string, body: res.body };
}

const redeem = (code: string, app = h.app) => raw('post', `/agents/device-codes/${encodeURIComponent(code)}/redeem`, undefined, app);

/** A platform, a customer and a connected agent with every permission (unless told otherwise). */
async function connected(permissions: string[] = ALL, extra: Record<string, unknown> = {}) {
  const p = await h.platform();
  const customerId = await customer(p);
  const { agentId, code } = await createAgent(p, customerId, permissions, extra);
  const res = await redeem(code);
  expect(res.status).toBe(200);
  const token = res.body.accessToken as string;
  return { p, customerId, agentId, token, agent: bearer(token) };
}

async function insertAction(platformId: string, agentId: string, customerId: string, fields: Partial<AgentAction> = {}) {
  const em = h.orm.em.fork();
  const now = new Date();
  const action = em.create(AgentAction, {
    id: `AgentAction:${randomUUID()}`,
    platformId,
    agentId,
    customerId,
    type: 'TRANSFER_OUT',
    status: 'APPROVED',
    approvalRequired: false,
    transferDetails: { amount: '1500', currency: 'USD', sourceAccountId: 'InternalAccount:x', destinationAccountId: 'ExternalAccount:y' },
    spendAmount: 1500n,
    spendCurrency: 'USD',
    createdAt: now,
    updatedAt: now,
    ...fields,
  });
  await em.flush();
  return action.id;
}

describe('POST /agents and the management reads', () => {
  test('creates an agent with its policy and a device code shown once (stored as a keyed hash)', async () => {
    const p = await h.platform();
    const customerId = await customer(p);
    const { agentId, code, body } = await createAgent(p, customerId, ['VIEW_TRANSACTIONS'], { approvalThresholds: { currency: 'USD', amount: 100_000 } });
    expect(agentId).toMatch(/^Agent:[0-9a-f-]{36}$/);
    expect(body.agent).toMatchObject({
      name: 'Payroll bot',
      customerId,
      isPaused: false,
      isConnected: false,
      policy: {
        permissions: ['VIEW_TRANSACTIONS'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10, monthlyLimit: null },
        approvalThresholds: { currency: 'USD', amount: 100_000 },
      },
      usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
    });
    expect(body.agent.usage.dailyResetDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.agent.usage.monthlyResetMonth).toMatch(/^\d{4}-\d{2}$/);
    expect(code).toMatch(/^SVC-AGENT-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(body.deviceCode).toMatchObject({ agentId, redeemed: false });
    const ttl = new Date(body.deviceCode.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    const rows = await h.orm.em.fork().find(AgentDeviceCode, { agentId });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code.slice('SVC-AGENT-'.length));

    const got = await p.api.get(`/agents/${agentId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(body.agent);
  });

  test('refuses every invalid field at once, an unknown customer 404 USER_NOT_FOUND, and persists nothing', async () => {
    const p = await h.platform();
    const customerId = await customer(p);
    const bad = await p.api.post('/agents', {
      name: '',
      customerId,
      policy: { permissions: ['FLY'], defaultExecutionMode: 'SOMETIMES', spendingLimits: { currency: 'XXX', perTransactionLimit: -1 }, extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    const fields = (bad.body.details.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'name',
        'policy.permissions.0',
        'policy.defaultExecutionMode',
        'policy.spendingLimits.currency',
        'policy.spendingLimits.perTransactionLimit',
        'policy',
      ]),
    );
    const unknown = await p.api.post('/agents', { name: 'x', customerId: `Customer:${randomUUID()}`, policy: policy() });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'USER_NOT_FOUND']);
    // A threshold amount needs its currency; an allowed account must be the customer's own.
    const other = await customer(p, 'Otto Other');
    const foreign = await p.api.post('/agents', {
      name: 'x',
      customerId,
      policy: policy(ALL, { approvalThresholds: { amount: 10 }, accountRestrictions: { allowedAccountIds: [await usdAccountOf(p, other)] } }),
    });
    expect(foreign.status).toBe(400);
    expect((foreign.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'policy.accountRestrictions.allowedAccountIds.0',
      'policy.approvalThresholds.currency',
    ]);
    expect(await h.orm.em.fork().count(Agent, { platformId: p.platform.id })).toBe(0);
  });

  test('GET /agents filters by customer, paused and connected state; unknown query parameters are refused', async () => {
    const p = await h.platform();
    const c1 = await customer(p);
    const c2 = await customer(p, 'Bea Second');
    const a1 = await createAgent(p, c1);
    const a2 = await createAgent(p, c2);
    expect((await redeem(a1.code)).status).toBe(200);
    expect((await p.api.patch(`/agents/${a2.agentId}`, { isPaused: true })).status).toBe(200);
    const ids = async (query: string) => ((await p.api.get(`/agents${query}`)).body.data as { id: string }[]).map((a) => a.id);
    expect((await ids('')).sort()).toEqual([a1.agentId, a2.agentId].sort());
    expect(await ids(`?customerId=${encodeURIComponent(c2)}`)).toEqual([a2.agentId]);
    expect(await ids('?isPaused=true')).toEqual([a2.agentId]);
    expect(await ids('?isConnected=true')).toEqual([a1.agentId]);
    expect(await ids('?isConnected=false&isPaused=false')).toEqual([]);
    expect(await ids(`?createdAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    const page = await p.api.get('/agents?limit=1');
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const unknown = await p.api.get('/agents?colour=blue');
    expect([unknown.status, unknown.body.details.errors[0].field]).toEqual([400, 'colour']);
  });

  test('PATCH renames and pauses; PATCH /policy merges (permissions replaced, limits field by field) and applies to the next request', async () => {
    const { p, agentId, agent } = await connected();
    const renamed = await p.api.patch(`/agents/${agentId}`, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', isPaused: false, isConnected: true });
    expect((await agent.get('/agents/me/transactions')).status).toBe(200);
    const patched = await p.api.patch(`/agents/${agentId}/policy`, { permissions: ['MANAGE_EXTERNAL_ACCOUNTS'], spendingLimits: { dailyLimit: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.policy).toMatchObject({
      permissions: ['MANAGE_EXTERNAL_ACCOUNTS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: null, dailyTransactionLimit: 10, monthlyLimit: null },
    });
    const refused = await agent.get('/agents/me/transactions');
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await agent.get('/agents/me')).body.policy.permissions).toEqual(['MANAGE_EXTERNAL_ACCOUNTS']);
    const invalid = await p.api.patch(`/agents/${agentId}/policy`, { approvalThresholds: { amount: 5 }, spendingLimits: { currency: 'NOPE' } });
    expect(invalid.status).toBe(400);
    expect((invalid.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['spendingLimits.currency']);
    const missingCurrency = await p.api.patch(`/agents/${agentId}/policy`, { approvalThresholds: { amount: 5 } });
    expect([missingCurrency.status, missingCurrency.body.details.errors[0].field]).toEqual([400, 'approvalThresholds.currency']);
    expect((await p.api.get(`/agents/${agentId}`)).body.policy).toEqual(patched.body.policy);
  });
});

describe('device codes', () => {
  test('redeemed once for the bearer token (stored as a keyed hash); the status follows; a second redemption is 400', async () => {
    const p = await h.platform();
    const customerId = await customer(p);
    const { agentId, code } = await createAgent(p, customerId);
    expect((await p.api.get(`/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: false });
    const res = await redeem(code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agentId, agentName: 'Payroll bot', policy: { permissions: ALL } });
    const token = res.body.accessToken as string;
    expect(token).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    const stored = await h.orm.em.fork().find(AgentAccessToken, { agentId });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
    expect((await p.api.get(`/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: true });
    expect((await p.api.get(`/agents/${agentId}`)).body.isConnected).toBe(true);
    const again = await redeem(code);
    expect([again.status, again.body.code, again.body.details.errors[0].constraint.rule]).toEqual([400, 'INVALID_INPUT', 'redeemed']);
    expect(JSON.stringify(again.body)).not.toContain('agt_');
    // Connected: no new code (409); the code typed in lower case is the same code.
    const regenerate = await p.api.post(`/agents/${agentId}/device-codes`);
    expect([regenerate.status, regenerate.body.code]).toEqual([409, 'CONFLICT']);
    expect((await p.api.get(`/agents/device-codes/${code.toLowerCase()}/status`)).body.redeemed).toBe(true);
  });

  test('two concurrent redemptions of one code: exactly one token', async () => {
    const p = await h.platform();
    const { agentId, code } = await createAgent(p, await customer(p));
    const answers = await Promise.all([redeem(code), redeem(code), redeem(code)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(await h.orm.em.fork().count(AgentAccessToken, { agentId })).toBe(1);
  });

  test('an expired code is 400 and issues nothing', async () => {
    const p = await h.platform();
    const { agentId, code } = await createAgent(p, await customer(p));
    await h.orm.em.fork().nativeUpdate(AgentDeviceCode, { agentId }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await redeem(code);
    expect([res.status, res.body.code, res.body.details.errors[0].constraint.rule]).toEqual([400, 'INVALID_INPUT', 'expired']);
    expect(await h.orm.em.fork().count(AgentAccessToken, { agentId })).toBe(0);
    expect((await p.api.get(`/agents/${agentId}`)).body.isConnected).toBe(false);
  });

  test('a regenerated code invalidates the earlier unredeemed one', async () => {
    const p = await h.platform();
    const { agentId, code: first } = await createAgent(p, await customer(p));
    const regenerated = await p.api.post(`/agents/${agentId}/device-codes`);
    expect(regenerated.status).toBe(201);
    expect(regenerated.body).toMatchObject({ agentId, redeemed: false });
    const second = regenerated.body.code as string;
    expect(second).not.toBe(first);
    const old = await redeem(first);
    expect([old.status, old.body.details.errors[0].constraint.rule]).toEqual([400, 'invalidated']);
    expect((await redeem(second)).status).toBe(200);
  });

  test('unknown and malformed codes are 404; another platform cannot read a code', async () => {
    const p = await h.platform();
    const b = await h.platform();
    const { code } = await createAgent(p, await customer(p));
    for (const path of ['SVC-AGENT-0000-0000-0000-0000', 'not a code!', 'x'.repeat(80)]) {
      const res = await redeem(path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    const status = await b.api.get(`/agents/device-codes/${code}/status`);
    expect([status.status, status.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await b.api.get('/agents/device-codes/SVC-AGENT-0000-0000-0000-0000/status')).body.code).toBe('NOT_FOUND');
  });
});

describe('credentials: a bearer token only under /agents/me, platform credentials only outside it', () => {
  test('a bearer token is 401 on platform operations; platform credentials are 401 on agent operations', async () => {
    const { p, agentId, token } = await connected();
    for (const path of ['/customers', '/agents', `/agents/${agentId}`, '/transactions', '/config']) {
      const res = await raw('get', path, `Bearer ${token}`);
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'UNAUTHORIZED']);
    }
    expect((await raw('delete', `/agents/${agentId}`, `Bearer ${token}`)).status).toBe(401);
    for (const path of ['/agents/me', '/agents/me/transactions', '/agents/me/external-accounts', '/agents/me/no-such-thing']) {
      const res = await raw('get', path, p.auth);
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'UNAUTHORIZED']);
      expect((await raw('get', path)).status).toBe(401);
    }
    // The agent's own unknown route: 404 after authentication; its money operations validate the body after it.
    expect((await raw('get', '/agents/me/no-such-thing', `Bearer ${token}`)).status).toBe(404);
    const empty = await raw('post', '/agents/me/transfer-out', `Bearer ${token}`);
    expect([empty.status, empty.body.code]).toEqual([400, 'INVALID_INPUT']);
    // The redemption takes no credentials at all: platform credentials there change nothing.
    expect((await raw('post', '/agents/device-codes/SVC-AGENT-0000-0000-0000-0000/redeem', p.auth)).status).toBe(404);
  });

  test('deleting the agent revokes its token at once; its codes and tokens are gone', async () => {
    const { p, agentId, agent } = await connected();
    expect((await agent.get('/agents/me')).status).toBe(200);
    expect((await p.api.delete(`/agents/${agentId}`)).status).toBe(204);
    const res = await agent.get('/agents/me');
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(await h.orm.em.fork().count(AgentAccessToken, { agentId })).toBe(0);
    expect(await h.orm.em.fork().count(AgentDeviceCode, { agentId })).toBe(0);
    expect((await p.api.get(`/agents/${agentId}`)).status).toBe(404);
    expect((await p.api.delete(`/agents/${agentId}`)).status).toBe(404);
  });

  test('a paused agent reads but cannot act (403); resumed, it acts again', async () => {
    const { p, agentId, agent } = await connected();
    expect((await p.api.patch(`/agents/${agentId}`, { isPaused: true })).body.isPaused).toBe(true);
    expect((await agent.get('/agents/me')).body.isPaused).toBe(true);
    expect((await agent.get('/agents/me/external-accounts')).status).toBe(200);
    const body = eurAccount(ibanOf('DE', '370400440532013000'));
    const refused = await agent.post('/agents/me/external-accounts', body);
    expect([refused.status, refused.body.code, refused.body.reason]).toEqual([403, 'FORBIDDEN', expect.stringContaining('paused')]);
    expect(await h.orm.em.fork().count(ExternalAccount, { platformId: p.platform.id })).toBe(0);
    await p.api.patch(`/agents/${agentId}`, { isPaused: false });
    expect((await agent.post('/agents/me/external-accounts', body)).status).toBe(201);
  });

  test('guessing tokens and codes from one address throttles that address, never a right token or code', async () => {
    const app = createApp({ ...h.deps, config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, authFailuresBeforeLockout: 2 } } });
    const { token } = await connected();
    const p = await h.platform();
    const { code } = await createAgent(p, await customer(p));
    const wrong = () => raw('get', '/agents/me', `Bearer agt_${'A'.repeat(43)}`, app);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    const guess = await redeem('SVC-AGENT-1111-1111-1111-1111', app);
    expect([guess.status, guess.body.code]).toEqual([429, 'RATE_LIMITED']);
    // From the same address, inside its window: the agent's own token and the right code go through.
    expect((await raw('get', '/agents/me', `Bearer ${token}`, app)).status).toBe(200);
    expect((await redeem(code, app)).status).toBe(200);
  });

  test('the access token and the device code never reach the logs', async () => {
    const stream = (logger as unknown as Record<symbol, { write: (line: string) => boolean }>)[pino.symbols.streamSym]!;
    const lines: string[] = [];
    const write = jest.spyOn(stream, 'write').mockImplementation((line: string) => (lines.push(String(line)), true));
    const level = logger.level;
    logger.level = 'debug';
    try {
      const p = await h.platform();
      const { code } = await createAgent(p, await customer(p));
      const res = await redeem(code);
      const token = res.body.accessToken as string;
      await raw('get', '/agents/me', `Bearer ${token}`);
      await raw('get', '/customers', `Bearer ${token}`);
      await redeem(code);
      await raw('get', `/agents/device-codes/${code}/status`, p.auth);
      expect(lines.length).toBeGreaterThan(3);
      const all = lines.join('\n');
      expect(all).toContain('/agents/device-codes/[redacted]/redeem');
      expect(all).not.toContain(token.slice(4));
      expect(all).not.toContain(code.slice('SVC-AGENT-'.length));
    } finally {
      logger.level = level;
      write.mockRestore();
    }
  });
});

describe('agent operations', () => {
  test("GET /agents/me: the agent's profile, policy and usage computed from its actions", async () => {
    const { p, agentId, customerId, agent } = await connected();
    const me = await agent.get('/agents/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: agentId, customerId, isConnected: true, usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 } });
    // Usage is summed from the actions that count (pending or approved), not kept as a counter.
    await insertAction(p.platform.id, agentId, customerId, { spendAmount: 1500n });
    await insertAction(p.platform.id, agentId, customerId, { status: 'PENDING_APPROVAL', spendAmount: 2500n });
    await insertAction(p.platform.id, agentId, customerId, { status: 'REJECTED', spendAmount: 9999n });
    await insertAction(p.platform.id, agentId, customerId, { createdAt: new Date(Date.now() - 40 * 86_400_000), spendAmount: 7777n });
    const usage = (await agent.get('/agents/me')).body.usage;
    expect(usage).toMatchObject({ dailyTransactionCount: 2, dailySpend: 4000, monthlySpend: 4000 });
    expect((await p.api.get(`/agents/${agentId}`)).body.usage).toEqual(usage);
  });

  test("transactions: the customer's own (VIEW_TRANSACTIONS), another customer's 404", async () => {
    const { p, customerId, agent, agentId } = await connected();
    const other = await customer(p, 'Otto Other');
    expect((await p.api.post(`/sandbox/internal-accounts/${await usdAccountOf(p, customerId)}/fund`, { amount: 1_000 })).status).toBeLessThan(300);
    expect((await p.api.post(`/sandbox/internal-accounts/${await usdAccountOf(p, other)}/fund`, { amount: 2_000 })).status).toBeLessThan(300);
    const all = (await p.api.get('/transactions')).body.data as { id: string; customerId: string }[];
    const mine = all.find((t) => t.customerId === customerId)!;
    const theirs = all.find((t) => t.customerId === other)!;
    const list = await agent.get('/agents/me/transactions');
    expect(list.status).toBe(200);
    expect((list.body.data as { id: string }[]).map((t) => t.id)).toEqual([mine.id]);
    expect((await agent.get(`/agents/me/transactions/${mine.id}`)).body.id).toBe(mine.id);
    const hidden = await agent.get(`/agents/me/transactions/${theirs.id}`);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    // The customer filters of GET /transactions are not the agent's.
    expect((await agent.get(`/agents/me/transactions?customerId=${encodeURIComponent(other)}`)).status).toBe(400);
    await p.api.patch(`/agents/${agentId}/policy`, { permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] });
    for (const path of ['/agents/me/transactions', `/agents/me/transactions/${mine.id}`]) {
      const res = await agent.get(path);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
  });

  test("internal accounts: the customer's own, only the allowed ones when the policy names some", async () => {
    const { p, customerId, agent, agentId } = await connected();
    await customer(p, 'Otto Other');
    const own = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data as { id: string }[];
    const listed = await agent.get('/agents/me/internal-accounts');
    expect(listed.status).toBe(200);
    expect((listed.body.data as { id: string }[]).map((a) => a.id).sort()).toEqual(own.map((a) => a.id).sort());
    const usd = await usdAccountOf(p, customerId);
    expect((await p.api.patch(`/agents/${agentId}/policy`, { accountRestrictions: { allowedAccountIds: [usd] } })).status).toBe(200);
    expect(((await agent.get('/agents/me/internal-accounts')).body.data as { id: string }[]).map((a) => a.id)).toEqual([usd]);
    expect((await agent.get('/agents/me/internal-accounts?currency=EUR')).body.data).toEqual([]);
  });

  test("external accounts: create (customer inferred), list, get, delete; another customer's are 404 and untouched", async () => {
    const { p, customerId, agent } = await connected();
    const other = await customer(p, 'Otto Other');
    const theirs = await p.api.post('/customers/external-accounts', { customerId: other, ...eurAccount(ibanOf('DE', '370400440532013001')) });
    expect(theirs.status).toBe(201);
    const created = await agent.post('/agents/me/external-accounts', eurAccount(ibanOf('DE', '370400440532013002')));
    expect(created.status).toBe(201);
    expect(created.body.customerId).toBe(customerId);
    const listed = await agent.get('/agents/me/external-accounts');
    expect((listed.body.data as { id: string }[]).map((a) => a.id)).toEqual([created.body.id]);
    expect((await agent.get(`/agents/me/external-accounts/${created.body.id}`)).body.id).toBe(created.body.id);
    for (const method of ['get', 'delete'] as const) {
      const res = await agent[method](`/agents/me/external-accounts/${theirs.body.id}`);
      expect([method, res.status, res.body.code]).toEqual([method, 404, 'NOT_FOUND']);
    }
    expect((await p.api.get(`/customers/external-accounts/${theirs.body.id}`)).status).toBe(200);
    const forOther = await agent.post('/agents/me/external-accounts', { customerId: other, ...eurAccount(ibanOf('DE', '370400440532013003')) });
    expect([forOther.status, forOther.body.code]).toEqual([404, 'USER_NOT_FOUND']);
    expect((await agent.delete(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(204);
    expect((await agent.get(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(404);
  });

  test('external accounts need MANAGE_EXTERNAL_ACCOUNTS: each operation refused without it', async () => {
    const { p, customerId, agent } = await connected(['VIEW_TRANSACTIONS']);
    const account = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013004')) });
    const calls = [
      () => agent.get('/agents/me/external-accounts'),
      () => agent.post('/agents/me/external-accounts', eurAccount(ibanOf('DE', '370400440532013005'))),
      () => agent.get(`/agents/me/external-accounts/${account.body.id}`),
      () => agent.delete(`/agents/me/external-accounts/${account.body.id}`),
    ];
    for (const call of calls) {
      const res = await call();
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect(await h.orm.em.fork().count(ExternalAccount, { platformId: p.platform.id, deletedAt: null })).toBe(1);
  });

  test("actions: the agent's own, filtered by status; another agent's are 404", async () => {
    const { p, customerId, agentId, agent } = await connected();
    const second = await createAgent(p, customerId);
    const approved = await insertAction(p.platform.id, agentId, customerId);
    const pending = await insertAction(p.platform.id, agentId, customerId, { status: 'PENDING_APPROVAL', approvalRequired: true });
    const notMine = await insertAction(p.platform.id, second.agentId, customerId);
    const list = await agent.get('/agents/me/actions');
    expect((list.body.data as { id: string }[]).map((a) => a.id).sort()).toEqual([approved, pending].sort());
    expect(((await agent.get('/agents/me/actions?status=PENDING_APPROVAL')).body.data as { id: string }[]).map((a) => a.id)).toEqual([pending]);
    const one = await agent.get(`/agents/me/actions/${approved}`);
    expect(one.body).toMatchObject({
      id: approved,
      agentId,
      customerId,
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: { amount: 1500, currency: 'USD', sourceAccountId: 'InternalAccount:x', destinationAccountId: 'ExternalAccount:y' },
    });
    expect(one.body.platformCustomerId).toMatch(/^c-/);
    expect((await agent.get(`/agents/me/actions/${notMine}`)).status).toBe(404);
    // The platform's approvals: the actions sent to it for a decision.
    const approvals = await p.api.get('/agents/approvals');
    expect((approvals.body.data as { id: string }[]).map((a) => a.id)).toEqual([pending]);
    expect((await p.api.get(`/agents/approvals?agentId=${encodeURIComponent(second.agentId)}`)).body.data).toEqual([]);
  });

  test("quotes: only those the agent created; the platform's own quote is 404", async () => {
    const { p, customerId, agentId, agent } = await connected();
    const usd = await usdAccountOf(p, customerId);
    await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 50_000 });
    const external = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013006')) });
    const quote = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: external.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect(quote.status).toBe(201);
    const hidden = await agent.get(`/agents/me/quotes/${quote.body.id}`);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    // Recorded as the agent's (as its quote creation will record it): shown.
    const em = h.orm.em.fork();
    em.create(AgentQuote, { quoteId: quote.body.id, platformId: p.platform.id, agentId, actionType: 'EXECUTE_QUOTE', createdAt: new Date() });
    await em.flush();
    const shown = await agent.get(`/agents/me/quotes/${quote.body.id}`);
    expect([shown.status, shown.body.id]).toEqual([200, quote.body.id]);
  });
});

describe('approving and rejecting agent actions', () => {
  test('an action that is not PENDING_APPROVAL is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL; unknown ones 404', async () => {
    const { p, customerId, agentId } = await connected();
    const b = await h.platform();
    const approved = await insertAction(p.platform.id, agentId, customerId);
    const rejected = await insertAction(p.platform.id, agentId, customerId, { status: 'REJECTED', approvalRequired: true, rejectionReason: 'no' });
    for (const [id, decision] of [
      [approved, 'approve'],
      [approved, 'reject'],
      [rejected, 'approve'],
    ] as const) {
      const res = await p.api.post(`/agents/${agentId}/actions/${id}/${decision}`, decision === 'reject' ? { reason: 'too much' } : undefined);
      expect([res.status, res.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    }
    expect((await p.api.post(`/agents/${agentId}/actions/AgentAction:${randomUUID()}/approve`)).status).toBe(404);
    expect((await p.api.post(`/agents/Agent:${randomUUID()}/actions/${approved}/approve`)).status).toBe(404);
    expect((await b.api.post(`/agents/${agentId}/actions/${approved}/approve`)).status).toBe(404);
    const unchanged = await h.orm.em.fork().findOneOrFail(AgentAction, { id: rejected });
    expect([unchanged.status, unchanged.rejectionReason]).toEqual(['REJECTED', 'no']);
  });
});

describe('tenant isolation', () => {
  test("another platform's management operations on A's agent answer as for an unknown agent, and change nothing", async () => {
    const { p, agentId } = await connected();
    const b = await h.platform();
    const before = await p.api.get(`/agents/${agentId}`);
    const calls: [string, () => Promise<{ status: number; body: { code?: string } }>][] = [
      ['get', () => b.api.get(`/agents/${agentId}`)],
      ['patch', () => b.api.patch(`/agents/${agentId}`, { isPaused: true })],
      ['policy', () => b.api.patch(`/agents/${agentId}/policy`, { permissions: [] })],
      ['device code', () => b.api.post(`/agents/${agentId}/device-codes`)],
      ['delete', () => b.api.delete(`/agents/${agentId}`)],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect([name, res.status, res.body.code]).toEqual([name, 404, 'NOT_FOUND']);
    }
    expect((await b.api.get('/agents')).body.data).toEqual([]);
    expect((await p.api.get(`/agents/${agentId}`)).body).toEqual(before.body);
    // B's customer cannot be given an agent by A, nor A's customer by B.
    const res = await b.api.post('/agents', { name: 'x', customerId: before.body.customerId, policy: policy() });
    expect([res.status, res.body.code]).toEqual([404, 'USER_NOT_FOUND']);
  });

  test("another platform's agent sees none of A's resources", async () => {
    const a = await connected();
    const b = await connected();
    const external = await a.p.api.post('/customers/external-accounts', { customerId: a.customerId, ...eurAccount(ibanOf('DE', '370400440532013007')) });
    await a.p.api.post(`/sandbox/internal-accounts/${await usdAccountOf(a.p, a.customerId)}/fund`, { amount: 1_000 });
    const transactionId = await eventually(
      async () => ((await a.p.api.get('/transactions')).body.data as { id: string }[])[0]?.id,
      (id) => !!id,
    );
    const action = await insertAction(a.p.platform.id, a.agentId, a.customerId);
    for (const path of [`/agents/me/external-accounts/${external.body.id}`, `/agents/me/transactions/${transactionId}`, `/agents/me/actions/${action}`]) {
      const res = await b.agent.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await b.agent.delete(`/agents/me/external-accounts/${external.body.id}`)).status).toBe(404);
    for (const path of ['/agents/me/transactions', '/agents/me/external-accounts', '/agents/me/actions']) {
      expect((await b.agent.get(path)).body.data).toEqual([]);
    }
    expect(((await b.agent.get('/agents/me/internal-accounts')).body.data as { id: string }[]).length).toBeGreaterThan(0);
    const aAccounts = (await a.agent.get('/agents/me/internal-accounts')).body.data as { id: string }[];
    const bAccounts = (await b.agent.get('/agents/me/internal-accounts')).body.data as { id: string }[];
    expect(bAccounts.filter((x) => aAccounts.some((y) => y.id === x.id))).toEqual([]);
  });
});
