import { Card, CardTransaction } from '../../src/contexts/cards/entities';
import { cardHoldsAccountId, cardNetworkAccountId } from '../../src/contexts/cards/services/card-ledger';
import { verifyRevealToken } from '../../src/contexts/cards/domain/card-secrets';
import { JournalEntry, LedgerAccount, Posting } from '../../src/contexts/ledger/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { decrypt } from '../../src/security/secrets';
import { eventually } from '../support/eventually';
import { individualFields, insertCustomer } from '../support/onboarding-fixtures';
import { provisionCustomerAccounts } from '../../src/contexts/customers/services/account-provisioning';
import { createCard } from '../../src/contexts/cards/services/cards';
import { strandedCards } from '../../src/contexts/cards/services/stranded-cards';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { CARD_TIMING } from '../../src/contexts/cards/services/card-timing';
import request from 'supertest';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { STALE_CLAIM_MS } from '../../src/api/idempotency';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
}, 120_000);
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };
const usd = { code: 'USD' };

async function cardholder(api: Api, fund = 10_000, fullName = 'Ada Lovelace') {
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName });
  expect(created.status).toBe(201);
  const customerId = created.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
  const accountId = accounts.body.data[0]?.id as string;
  if (fund > 0) expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: fund })).status).toBe(200);
  return { customerId, accountId };
}

async function issue(api: Api, holder: { customerId: string; accountId: string }, extra: Record<string, unknown> = {}) {
  const res = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.accountId], ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: string; state: string };
}

async function activeCard(api: Api, holder: { customerId: string; accountId: string }, extra: Record<string, unknown> = {}) {
  const card = await issue(api, holder, extra);
  return (
    await eventually(
      () => api.get(`/cards/${card.id}`),
      (r) => r.body.state === 'ACTIVE',
    )
  ).body as { id: string; state: string; last4: string };
}

const account = (id: string) => h.orm.em.fork().findOneOrFail(LedgerAccount, { id });
const simulate = (api: Api, cardId: string, what: string, body: unknown) => api.post(`/sandbox/cards/${cardId}/simulate/${what}`, body);
/** An authorization the test needs approved: a decline (202 with its reason and no transaction) fails here, naming the reason. */
const approvedAuthorization = async (api: Api, cardId: string, body: object) => {
  const res = await simulate(api, cardId, 'authorization', body).expect(202);
  expect(res.body).toMatchObject({ cardTransactionId: expect.any(String) });
  expect(res.body.declineReason).toBeUndefined();
  return res.body.cardTransactionId as string;
};

describe('issuing a card', () => {
  test('PROCESSING, then ACTIVE from the simulated issuer with CARD.STATE_CHANGE; the PAN is sealed and never shown', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api);
    const created = await issue(api, holder, { platformCardId: 'emp-1', maxSpendPerTransaction: 5000, threeDSecurePassword: 'secret-3ds' });
    expect(created).toMatchObject({
      state: 'PROCESSING',
      stateReason: null,
      cardholderId: holder.customerId,
      platformCardId: 'emp-1',
      form: 'VIRTUAL',
      fundingSources: [holder.accountId],
      maxSpendPerTransaction: 5000,
      currency: 'USD',
    });
    expect(created).not.toHaveProperty('last4');

    const active = await activeCard(api, holder);
    expect(active).toMatchObject({ state: 'ACTIVE', brand: 'VISA', stateReason: null });
    expect(active.last4).toMatch(/^\d{4}$/);
    await h.receiver.waitFor((hooks) =>
      hooks.some((x) => x.body.type === 'CARD.STATE_CHANGE' && x.body.data.id === active.id && x.body.data.state === 'ACTIVE'),
    );

    const stored = await h.orm.em.fork().findOneOrFail(Card, { id: active.id }, { populate: ['sealedSecrets'] });
    const { pan, cvv } = JSON.parse(decrypt(h.masterKey, stored.sealedSecrets!)) as { pan: string; cvv: string };
    expect(pan.slice(-4)).toBe(active.last4);
    expect(stored.panHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.sealedSecrets).not.toContain(pan);
    const got = await api.get(`/cards/${active.id}`);
    const list = await api.get('/cards');
    const hooks = JSON.stringify(h.receiver.received.filter((x) => x.body.data.id === active.id));
    for (const text of [JSON.stringify(got.body), JSON.stringify(list.body), hooks]) {
      expect(text).not.toContain(pan);
      expect(text).not.toContain(`"${cvv}"`);
    }
    // threeDSecurePassword is forwarded, never stored.
    expect(JSON.stringify(await h.orm.em.fork().find(Card, { cardholderId: holder.customerId }, { populate: ['sealedSecrets'] }))).not.toContain('secret-3ds');
  });

  test('reveal: a signed URL valid for minutes, for this card only', async () => {
    const { api } = await h.platform();
    const card = await activeCard(api, await cardholder(api));
    const res = await api.post(`/cards/${card.id}/reveal`);
    expect(res.status).toBe(200);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const token = new URL(res.body.panEmbedUrl as string).hash.slice(1);
    expect(res.body.panEmbedUrl).not.toContain(card.id);
    expect(verifyRevealToken(h.masterKey, token, Date.now())?.cardId).toBe(card.id);
    expect(verifyRevealToken(h.masterKey, token, expiresAt + 1)).toBeNull();
  });

  test('the reveal page: served without partner credentials, shows the card to the link holder only, never cached', async () => {
    const { api } = await h.platform();
    const card = await activeCard(api, await cardholder(api));
    const url = new URL((await api.post(`/cards/${card.id}/reveal`)).body.panEmbedUrl as string);
    const token = url.hash.slice(1);
    const page = await request(h.app).get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toContain(token);
    expect((await request(h.app).get(`${url.pathname}.js`)).status).toBe(200);

    const shown = await request(h.app).post(url.pathname).send({ token });
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    const stored = await h.orm.em.fork().findOneOrFail(Card, { id: card.id }, { populate: ['sealedSecrets'] });
    const { pan, cvv } = JSON.parse(decrypt(h.masterKey, stored.sealedSecrets!)) as { pan: string; cvv: string };
    expect(shown.body).toEqual({ pan, cvv, expMonth: stored.expMonth, expYear: stored.expYear });

    // A forged or altered link, or none, shows nothing; neither does the link of a closed card.
    const [payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ c: card.id, e: Date.now() + 3_600_000 })).toString('base64url');
    for (const bad of [`${other}.${signature}`, `${payload}.${signature!.slice(0, -2)}AA`, '', 'x']) {
      const refused = await request(h.app).post(url.pathname).send({ token: bad });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'NOT_FOUND' });
      expect(JSON.stringify(refused.body)).not.toContain(pan);
    }
    expect((await api.patch(`/cards/${card.id}`, { state: 'CLOSED' })).status).toBe(200);
    expect((await request(h.app).post(url.pathname).send({ token })).status).toBe(404);
  });

  test('a reveal link works once, and only while the card is ACTIVE', async () => {
    const { api } = await h.platform();
    const card = await activeCard(api, await cardholder(api));
    const link = async () => {
      const url = new URL((await api.post(`/cards/${card.id}/reveal`).expect(200)).body.panEmbedUrl as string);
      return { path: url.pathname, token: url.hash.slice(1) };
    };
    const first = await link();
    expect((await request(h.app).post(first.path).send({ token: first.token })).status).toBe(200);
    // A second use is refused, and says why.
    const again = await request(h.app).post(first.path).send({ token: first.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT' });
    expect(again.body.reason).toMatch(/already been used/);
    expect(again.body).not.toHaveProperty('pan');

    // A link minted while ACTIVE shows nothing once the card is frozen, nor after it is unfrozen.
    const beforeFreeze = await link();
    await api.patch(`/cards/${card.id}`, { state: 'FROZEN' }).expect(200);
    expect((await request(h.app).post(beforeFreeze.path).send({ token: beforeFreeze.token })).status).toBe(404);
    // A frozen card's details are not revealed: unfreezing comes first.
    const frozen = await api.post(`/cards/${card.id}/reveal`);
    expect([frozen.status, frozen.body.code]).toEqual([409, 'CONFLICT']);
    await api.patch(`/cards/${card.id}`, { state: 'ACTIVE' }).expect(200);
    const unfrozen = await link();
    await api.patch(`/cards/${card.id}`, { state: 'CLOSED' }).expect(200);
    expect((await request(h.app).post(unfrozen.path).send({ token: unfrozen.token })).status).toBe(404);
    const closed = await api.post(`/cards/${card.id}/reveal`);
    expect([closed.status, closed.body.code]).toEqual([409, 'CARD_NOT_MUTABLE']);
  });

  test('the newest reveal link replaces the one before it', async () => {
    const { api } = await h.platform();
    const card = await activeCard(api, await cardholder(api));
    const older = new URL((await api.post(`/cards/${card.id}/reveal`).expect(200)).body.panEmbedUrl as string);
    const newer = new URL((await api.post(`/cards/${card.id}/reveal`).expect(200)).body.panEmbedUrl as string);
    expect(
      (
        await request(h.app)
          .post(older.pathname)
          .send({ token: older.hash.slice(1) })
      ).status,
    ).toBe(409);
    expect(
      (
        await request(h.app)
          .post(newer.pathname)
          .send({ token: newer.hash.slice(1) })
      ).status,
    ).toBe(200);
  });

  test('the sandbox issuer rejects platformCardId ending in 002: CLOSED, ISSUER_REJECTED, and the slot is free', async () => {
    const { api } = await h.platform({ oneCardPerCardholder: true });
    const holder = await cardholder(api);
    const card = await issue(api, holder, { platformCardId: 'reject-002' });
    const rejected = await eventually(
      () => api.get(`/cards/${card.id}`),
      (r) => r.body.state !== 'PROCESSING',
    );
    expect(rejected.body).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
    expect(rejected.body).not.toHaveProperty('last4');
    await issue(api, holder);
  });

  test('a cardholder whose KYC is not APPROVED: 400 CARDHOLDER_KYC_NOT_APPROVED, nothing persisted', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 0, 'Pending Person 001');
    const res = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.accountId] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CARDHOLDER_KYC_NOT_APPROVED');
    expect(await h.orm.em.fork().count(Card, { platformId: platform.id })).toBe(0);
  });

  test("funding sources in another currency, or not the cardholder's: 400 FUNDING_SOURCE_INELIGIBLE listing each; with other invalid fields INVALID_INPUT; nothing persisted", async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 0);
    const other = await cardholder(api, 0);
    const eur = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(holder.customerId)}&currency=EUR`)).body.data[0].id as string;
    const rulesOf = (body: { details: { errors: { field: string; constraint: { rule: string } }[] } }) =>
      body.details.errors.map((e) => [e.field, e.constraint.rule]);

    const mixed = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.accountId, eur] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.code).toBe('FUNDING_SOURCE_INELIGIBLE');
    expect(rulesOf(mixed.body)).toEqual([['fundingSources.1', 'fundingSourceIneligible']]);
    const foreign = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [other.accountId] });
    expect(foreign.body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
    const alsoBad = await api.post('/cards', {
      cardholderId: holder.customerId,
      form: 'VIRTUAL',
      fundingSources: [holder.accountId, eur],
      maxSpendPerTransaction: -1,
    });
    expect(alsoBad.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(alsoBad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['fundingSources.1', 'maxSpendPerTransaction']);
    expect(await h.orm.em.fork().count(Card, { platformId: platform.id })).toBe(0);

    // Replacing a USD card's sources with a EUR account: the same code, the card unchanged.
    const card = await issue(api, holder);
    const changed = await api.patch(`/cards/${card.id}`, { fundingSources: [eur] });
    expect(changed.body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
    expect(rulesOf(changed.body)).toEqual([['fundingSources.0', 'fundingSourceIneligible']]);
    expect((await api.get(`/cards/${card.id}`)).body.fundingSources).toEqual([holder.accountId]);
  });

  test('invalid input lists every invalid field, nothing persisted', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 0);
    const other = await cardholder(api, 0);
    const res = await api.post('/cards', {
      cardholderId: holder.customerId,
      form: 'PLASTIC',
      fundingSources: [other.accountId, holder.accountId],
      maxSpendPerTransaction: 0,
      colour: 'red',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    const fields = (res.body.details.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['form', 'fundingSources.0', 'maxSpendPerTransaction']));
    expect(
      (res.body.details.errors as { constraint: { rule: string }; message: string }[]).some(
        (e) => e.constraint.rule === 'additionalProperties' && e.message.includes('colour'),
      ),
    ).toBe(true);
    expect(fields).not.toContain('fundingSources.1');
    const none = await api.post('/cards', { cardholderId: 'Customer:00000000-0000-4000-8000-000000000000', form: 'VIRTUAL', fundingSources: [] });
    expect(none.status).toBe(400);
    expect((none.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['cardholderId', 'fundingSources']);
    expect(await h.orm.em.fork().count(Card, { platformId: platform.id })).toBe(0);
  });

  test('the live-card cap and one card per cardholder: 409 CARD_LIMIT_REACHED; closing frees a slot', async () => {
    const capped = await h.platform({ maxLiveCards: 2 });
    const a = await cardholder(capped.api, 0);
    const first = await activeCard(capped.api, a);
    await issue(capped.api, a);
    const over = await capped.api.post('/cards', { cardholderId: a.customerId, form: 'VIRTUAL', fundingSources: [a.accountId] });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('CARD_LIMIT_REACHED');
    expect((await capped.api.patch(`/cards/${first.id}`, { state: 'CLOSED' })).status).toBe(200);
    await issue(capped.api, a);

    const single = await h.platform({ oneCardPerCardholder: true });
    const b = await cardholder(single.api, 0);
    const c = await cardholder(single.api, 0);
    const only = await activeCard(single.api, b);
    const second = await single.api.post('/cards', { cardholderId: b.customerId, form: 'VIRTUAL', fundingSources: [b.accountId] });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CARD_LIMIT_REACHED');
    await issue(single.api, c);
    await single.api.patch(`/cards/${only.id}`, { state: 'CLOSED' }).expect(200);
    await issue(single.api, b);
  });

  test('an issue whose first attempt committed and died before answering finds its card again: one card, the cap not counted twice', async () => {
    const { api, platform } = await h.platform({ oneCardPerCardholder: true });
    const holder = await cardholder(api, 0);
    const body = { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.accountId] };
    const first = await api.post('/cards', body, { 'Idempotency-Key': 'issue-died' });
    expect(first.status).toBe(201);
    // As if the API had died after the card's commit: the key is still claimed, and the claim went silent.
    await h.orm.em
      .fork()
      .nativeUpdate(
        IdempotencyRecord,
        { platformId: platform.id, key: 'issue-died' },
        { state: 'IN_PROGRESS', statusCode: null, responseBody: null, renewedAt: new Date(Date.now() - STALE_CLAIM_MS - 1_000) },
      );
    const retried = await api.post('/cards', body, { 'Idempotency-Key': 'issue-died' });
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    expect(await h.orm.em.fork().count(Card, { platformId: platform.id })).toBe(1);
    // Another key is another card: refused by the one-card rule.
    expect((await api.post('/cards', body, { 'Idempotency-Key': 'issue-again' })).body.code).toBe('CARD_LIMIT_REACHED');
  });

  test('a simulation whose first attempt was applied and died before answering is not applied twice', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 5_000);
    const card = await activeCard(api, holder);
    const died = async (key: string) =>
      h.orm.em
        .fork()
        .nativeUpdate(
          IdempotencyRecord,
          { platformId: platform.id, key },
          { state: 'IN_PROGRESS', statusCode: null, responseBody: null, renewedAt: new Date(Date.now() - STALE_CLAIM_MS - 1_000) },
        );
    const auth = { amount: 1_000, currency: usd, merchant };
    const first = await api.post(`/sandbox/cards/${card.id}/simulate/authorization`, auth, { 'Idempotency-Key': 'auth-died' });
    await died('auth-died');
    const again = await api.post(`/sandbox/cards/${card.id}/simulate/authorization`, auth, { 'Idempotency-Key': 'auth-died' });
    expect(again.status).toBe(202);
    expect(again.body.cardTransactionId).toBe(first.body.cardTransactionId);
    expect(await account(holder.accountId)).toMatchObject({ balance: 4_000n, held: 1_000n });

    const clearing = { cardTransactionId: first.body.cardTransactionId, amount: 400 };
    await api.post(`/sandbox/cards/${card.id}/simulate/clearing`, clearing, { 'Idempotency-Key': 'clear-died' }).expect(202);
    await died('clear-died');
    await api.post(`/sandbox/cards/${card.id}/simulate/clearing`, clearing, { 'Idempotency-Key': 'clear-died' }).expect(202);
    expect(await h.orm.em.fork().findOneOrFail(CardTransaction, { id: first.body.cardTransactionId })).toMatchObject({
      status: 'PARTIALLY_SETTLED',
      settledAmount: 400n,
      heldAmount: 600n,
      settlementCount: 1,
    });
    expect(await h.orm.em.fork().count(CardTransaction, { cardId: card.id })).toBe(1);
  });

  test('production tokens: 501, no card issuer is connected', async () => {
    const { api } = await h.platform({ environment: 'PRODUCTION' });
    const res = await api.post('/cards', {
      cardholderId: 'Customer:00000000-0000-4000-8000-000000000000',
      form: 'VIRTUAL',
      fundingSources: ['InternalAccount:00000000-0000-4000-8000-000000000000'],
    });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('NOT_IMPLEMENTED');
  });
});

describe('a card whose workflow never started', () => {
  test('the sweep starts it: the issuer answers and the card becomes ACTIVE', async () => {
    const { platform } = await h.platform();
    const customer = await insertCustomer(h.orm, h.masterKey, platform.id, { ...individualFields('Stranded Holder'), kycStatus: 'APPROVED' });
    const [funding] = await provisionCustomerAccounts(h.orm.em.fork(), platform, customer);
    // Recorded, as POST /cards records it, but the process died before starting the workflow.
    const card = await createCard(h.orm.em.fork(), {
      platformId: platform.id,
      environment: 'SANDBOX',
      body: { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [funding!.id] },
    });
    expect(await startStrandedOf(h.orm, h.temporal, strandedCards, { graceMs: 60_000, taskQueue: h.taskQueue, platformId: platform.id })).not.toContain(
      card.id,
    );
    const started = await startStrandedOf(h.orm, h.temporal, strandedCards, { graceMs: -10_000, taskQueue: h.taskQueue, platformId: platform.id });
    expect(started).toContain(card.id);
    await eventually(
      () => h.orm.em.fork().findOneOrFail(Card, { id: card.id }),
      (c) => c.state === 'ACTIVE',
    );
  });
});

describe('GET /cards', () => {
  test('filters by cardholder, funding account, platformCardId and state; pages with a cursor; unknown parameters are refused', async () => {
    const { api } = await h.platform();
    const a = await cardholder(api, 0);
    const b = await cardholder(api, 0);
    const a1 = await activeCard(api, a, { platformCardId: 'a-1' });
    const a2 = await activeCard(api, a, { platformCardId: 'a-2' });
    const b1 = await activeCard(api, b, { platformCardId: 'b-1' });
    await api.patch(`/cards/${a2.id}`, { state: 'FROZEN' }).expect(200);
    const ids = async (query: string) => ((await api.get(`/cards${query}`).expect(200)).body.data as { id: string }[]).map((c) => c.id);
    expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}`)).toEqual([a2.id, a1.id]);
    expect(await ids(`?accountId=${encodeURIComponent(b.accountId)}`)).toEqual([b1.id]);
    expect(await ids('?platformCardId=a-1')).toEqual([a1.id]);
    expect(await ids('?state=FROZEN')).toEqual([a2.id]);
    expect(await ids('?sortOrder=asc')).toEqual([a1.id, a2.id, b1.id]);
    const page1 = await api.get('/cards?limit=2').expect(200);
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const page2 = await api.get(`/cards?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`).expect(200);
    expect([...page1.body.data, ...page2.body.data].map((c: { id: string }) => c.id)).toEqual([b1.id, a2.id, a1.id]);
    const unknown = await api.get('/cards?colour=red');
    expect(unknown.status).toBe(400);
    expect((unknown.body.details.errors as { field: string }[]).map((e) => e.field)).toEqual(['colour']);
    const bad = await api.get('/cards?state=LOST&limit=0');
    expect(bad.status).toBe(400);
    expect((bad.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['limit', 'state']);
  });
});

describe('PATCH /cards/{id}', () => {
  test('freeze, unfreeze, close with CARD.STATE_CHANGE; refused changes answer the spec codes and change nothing', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api, 0);
    const processing = await issue(api, holder);
    const early = await api.patch(`/cards/${processing.id}`, { state: 'FROZEN' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('INVALID_STATE_TRANSITION');

    const card = await eventually(
      () => api.get(`/cards/${processing.id}`),
      (r) => r.body.state === 'ACTIVE',
    ).then((r) => r.body as { id: string });
    const same = await api.patch(`/cards/${card.id}`, { state: 'ACTIVE' });
    expect(same.status).toBe(409);
    expect(same.body.code).toBe('INVALID_STATE_TRANSITION');
    expect((await api.patch(`/cards/${card.id}`, { state: 'FROZEN' })).body).toMatchObject({ id: card.id, state: 'FROZEN', stateReason: null });
    expect((await api.patch(`/cards/${card.id}`, { state: 'ACTIVE' })).body).toMatchObject({ state: 'ACTIVE' });
    expect((await api.patch(`/cards/${card.id}`, { maxSpendPerTransaction: 700 })).body).toMatchObject({ state: 'ACTIVE', maxSpendPerTransaction: 700 });
    expect((await api.patch(`/cards/${card.id}`, { maxSpendPerTransaction: null })).body).toMatchObject({ maxSpendPerTransaction: null });
    const closed = await api.patch(`/cards/${card.id}`, { state: 'CLOSED' });
    // Closing detaches the funding sources, and says so.
    expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
    await h.receiver.waitFor((hooks) =>
      hooks.some((x) => x.body.type === 'CARD.FUNDING_SOURCE_CHANGE' && x.body.data.id === card.id && (x.body.data.fundingSources as unknown[]).length === 0),
    );

    const again = await api.patch(`/cards/${card.id}`, { state: 'CLOSED' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CARD_ALREADY_CLOSED');
    for (const body of [{ state: 'ACTIVE' }, { maxSpendPerTransaction: 10 }, { fundingSources: [holder.accountId] }]) {
      const res = await api.patch(`/cards/${card.id}`, body);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CARD_NOT_MUTABLE');
    }
    expect((await api.get(`/cards/${card.id}`)).body).toMatchObject({ state: 'CLOSED', maxSpendPerTransaction: null });
    await h.receiver.waitFor((hooks) => hooks.filter((x) => x.body.type === 'CARD.STATE_CHANGE' && x.body.data.id === card.id).length === 4);
    const states = h.receiver.received.filter((x) => x.body.type === 'CARD.STATE_CHANGE' && x.body.data.id === card.id).map((x) => x.body.data.state);
    expect(states).toEqual(['ACTIVE', 'FROZEN', 'ACTIVE', 'CLOSED']);
  });

  test('funding sources: replaced with CARD.FUNDING_SOURCE_CHANGE; another customer’s account is refused; invalid bodies list every field', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 0);
    const other = await cardholder(api, 0);
    const card = await activeCard(api, holder);
    const eur = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(holder.customerId)}&currency=EUR`)).body.data[0].id as string;

    const foreign = await api.patch(`/cards/${card.id}`, { fundingSources: [other.accountId, eur] });
    expect(foreign.status).toBe(400);
    expect((foreign.body.details.errors as { field: string; constraint: { rule: string } }[]).map((e) => [e.field, e.constraint.rule])).toEqual([
      ['fundingSources.0', 'fundingSourceIneligible'],
      ['fundingSources.1', 'fundingSourceIneligible'],
    ]);
    const bad = await api.patch(`/cards/${card.id}`, { state: 'CLOSED', fundingSources: [], maxSpendPerTransaction: -1 });
    expect(bad.status).toBe(400);
    expect([...new Set((bad.body.details.errors as { field: string }[]).map((e) => e.field))].sort()).toEqual(['fundingSources', 'maxSpendPerTransaction']);
    expect((await api.patch(`/cards/${card.id}`, {})).status).toBe(400);

    const changed = await api.patch(`/cards/${card.id}`, { fundingSources: [holder.accountId] });
    expect(changed.status).toBe(200);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CARD.FUNDING_SOURCE_CHANGE' && x.body.data.id === card.id));
    const hook = h.receiver.received.find((x) => x.body.type === 'CARD.FUNDING_SOURCE_CHANGE' && x.body.data.id === card.id)!;
    expect(hook.body.data).toMatchObject({ fundingSources: [holder.accountId], state: 'ACTIVE' });
    expect((await h.orm.em.fork().findOneOrFail(Card, { id: card.id })).platformId).toBe(platform.id);
  });

  test('concurrent state changes are serialized and each answered truthfully', async () => {
    const { api } = await h.platform();
    const card = await activeCard(api, await cardholder(api, 0));
    const answers = await Promise.all([
      api.patch(`/cards/${card.id}`, { state: 'FROZEN' }),
      api.patch(`/cards/${card.id}`, { state: 'FROZEN' }),
      api.patch(`/cards/${card.id}`, { state: 'CLOSED' }),
    ]);
    const [freezeA, freezeB, close] = answers;
    // Applied one at a time in some order: the close succeeds from ACTIVE or FROZEN; at most one
    // freeze succeeds (before the close); the other meets FROZEN (INVALID_STATE_TRANSITION) or CLOSED (CARD_NOT_MUTABLE).
    expect(close!.status).toBe(200);
    expect(close!.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
    const freezes = [freezeA!, freezeB!];
    expect(freezes.filter((r) => r.status === 200 && r.body.state === 'FROZEN').length).toBeLessThanOrEqual(1);
    for (const r of freezes.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(['INVALID_STATE_TRANSITION', 'CARD_NOT_MUTABLE']).toContain(r.body.code);
    }
    // Had both freezes been refused as INVALID_STATE_TRANSITION, one of them must have frozen it first.
    expect(freezes.filter((r) => r.body.code === 'INVALID_STATE_TRANSITION').length).toBeLessThanOrEqual(freezes.filter((r) => r.status === 200).length);
    expect((await api.get(`/cards/${card.id}`)).body.state).toBe('CLOSED');
  });
});

describe('card transactions on the ledger', () => {
  test('authorization holds, partial clearings settle and the rest is released; webhooks and GET /transactions show it', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 10_000);
    const card = await activeCard(api, holder);

    const auth = await simulate(api, card.id, 'authorization', { amount: 4_000, currency: usd, merchant });
    expect(auth.status).toBe(202);
    expect(auth.body.issuerTransactionToken).toEqual(expect.any(String));
    const txId = auth.body.cardTransactionId as string;
    expect(await account(holder.accountId)).toMatchObject({ balance: 6_000n, held: 4_000n });
    expect((await account(cardHoldsAccountId(platform.id, 'USD'))).balance).toBe(4_000n);

    const first = await simulate(api, card.id, 'clearing', { cardTransactionId: txId, amount: 1_500 });
    expect(first.status).toBe(202);
    let row = await h.orm.em.fork().findOneOrFail(CardTransaction, { id: txId });
    expect(row).toMatchObject({ status: 'PARTIALLY_SETTLED', heldAmount: 2_500n, settledAmount: 1_500n });
    expect(await account(holder.accountId)).toMatchObject({ balance: 6_000n, held: 2_500n });

    await simulate(api, card.id, 'clearing', { cardTransactionId: txId, amount: 2_500 }).expect(202);
    row = await h.orm.em.fork().findOneOrFail(CardTransaction, { id: txId });
    expect(row).toMatchObject({ status: 'SETTLED', heldAmount: 0n, settledAmount: 4_000n, settlementCount: 2 });
    expect(await account(holder.accountId)).toMatchObject({ balance: 6_000n, held: 0n });
    expect((await account(cardNetworkAccountId(platform.id, 'USD'))).balance).toBe(4_000n);
    expect((await account(cardHoldsAccountId(platform.id, 'USD'))).balance).toBe(0n);

    // Every entry of the card transaction balances.
    const em = h.orm.em.fork();
    const entries = await em.find(JournalEntry, { transactionId: txId });
    expect(entries).toHaveLength(3);
    for (const entry of entries) expect((await em.find(Posting, { entryId: entry.id })).reduce((s, p) => s + p.amount, 0n)).toBe(0n);

    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CARD_TRANSACTION.SETTLED' && x.body.data.id === txId));
    const types = h.receiver.received.filter((x) => x.body.data.id === txId).map((x) => x.body.type);
    expect(types).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.PARTIALLY_SETTLED', 'CARD_TRANSACTION.SETTLED']);
    const settledHook = h.receiver.received.find((x) => x.body.type === 'CARD_TRANSACTION.SETTLED' && x.body.data.id === txId)!;
    expect(settledHook.body.data).toMatchObject({
      type: 'CARD',
      cardId: card.id,
      customerId: holder.customerId,
      direction: 'DEBIT',
      merchant,
      authorizedAmount: { amount: 4_000 },
      settledAmount: { amount: 4_000 },
      accountId: holder.accountId,
      settlementSummary: { count: 2, totalAmount: 4_000 },
    });

    const listed = await api.get('/transactions').expect(200);
    expect(listed.body.data.find((t: { id: string }) => t.id === txId)).toMatchObject({ type: 'CARD', status: 'SETTLED' });
    expect((await api.get(`/transactions/${txId}`).expect(200)).body).toMatchObject({ id: txId, type: 'CARD', settledAmount: { amount: 4_000 } });
  });

  test('sandbox delayed pulls: 005 is pending, then confirmed; 006 is confirmed FAILED and the transaction goes to EXCEPTION', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 5_000);
    const usual = CARD_TIMING.pullConfirmationSeconds;
    CARD_TIMING.pullConfirmationSeconds = 2; // the card's workflow takes its timers when the card is issued
    const card = await activeCard(api, holder).finally(() => (CARD_TIMING.pullConfirmationSeconds = usual));
    const authorize = async (descriptor: string) =>
      (await simulate(api, card.id, 'authorization', { amount: 1_000, currency: usd, merchant: { ...merchant, descriptor } }).expect(202)).body
        .cardTransactionId as string;
    const delayed = await authorize('DELAYED PULL-005');
    const failing = await authorize('FAILED CONFIRM-006');
    const plain = await authorize('PLAIN');
    const view = async (id: string) => (await api.get(`/transactions/${id}`).expect(200)).body;
    // Each authorization's webhook is the transaction as its authorization committed it: the delayed pull
    // pending, the plain one not. (A read of the view races the 2 s confirmation timer: on a loaded core the
    // three authorizations alone outlast it.)
    const authorizedHook = async (id: string) => {
      const isIt = (x: (typeof h.receiver.received)[number]) => x.body.type === 'CARD_TRANSACTION.AUTHORIZED' && x.body.data.id === id;
      await h.receiver.waitFor((hooks) => hooks.some(isIt));
      return h.receiver.received.find(isIt)!.body.data;
    };
    expect(await authorizedHook(delayed)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 1 } });
    expect(await authorizedHook(plain)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });
    expect(await view(plain)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });

    await eventually(
      () => view(delayed),
      (t) => t.pullSummary.pendingCount === 0,
    );
    const failed = await eventually(
      () => view(failing),
      (t) => t.status === 'EXCEPTION',
    );
    expect(failed.pullSummary).toMatchObject({ pendingCount: 0 });
    expect(await view(delayed)).toMatchObject({ status: 'AUTHORIZED' });
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CARD_TRANSACTION.EXCEPTION' && x.body.data.id === failing));
    // The money moved: all three holds stand, and the ledger audit agrees.
    expect(await account(holder.accountId)).toMatchObject({ balance: 2_000n, held: 3_000n });
    expect((await runLedgerAudit(h.orm.em.fork())).findings.filter((f) => f.subject.includes(platform.id) || f.subject === holder.accountId)).toEqual([]);
    // An exception is not cleared like an open authorization.
    expect((await simulate(api, card.id, 'clearing', { cardTransactionId: failing, amount: 1_000 })).status).toBe(400);
  });

  test('declines: frozen card, over maxSpendPerTransaction, insufficient funds, sandbox suffixes; nothing is held', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api, 1_000);
    const card = await activeCard(api, holder, { maxSpendPerTransaction: 800 });
    const decline = async (body: object) => (await simulate(api, card.id, 'authorization', { currency: usd, merchant, ...body }).expect(202)).body;
    expect(await decline({ amount: 801 })).toMatchObject({ declineReason: 'SPEND_LIMIT_EXCEEDED' });
    await api.patch(`/cards/${card.id}`, { maxSpendPerTransaction: null }).expect(200);
    expect(await decline({ amount: 1_001 })).toMatchObject({ declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await decline({ amount: 10, merchant: { descriptor: 'AMAZON RETAIL US-002' } })).toMatchObject({ declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await decline({ amount: 10, merchant: { descriptor: 'AMAZON RETAIL US-003' } })).toMatchObject({ declineReason: 'CARD_PAUSED' });
    await api.patch(`/cards/${card.id}`, { state: 'FROZEN' }).expect(200);
    expect(await decline({ amount: 10 })).toMatchObject({ declineReason: 'CARD_PAUSED' });
    await api.patch(`/cards/${card.id}`, { state: 'ACTIVE' }).expect(200);
    const approved = await decline({ amount: 1_000 });
    expect(approved.declineReason).toBeUndefined();
    expect(await account(holder.accountId)).toMatchObject({ balance: 0n, held: 1_000n });
    expect(await h.orm.em.fork().count(CardTransaction, { cardId: card.id })).toBe(1);
    const wrongCurrency = await simulate(api, card.id, 'authorization', { amount: 1, currency: { code: 'EUR' }, merchant });
    expect(wrongCurrency.status).toBe(400);
  });

  test('advice, over-auth clearing, returns, return reversal, credits, financial authorizations, balance inquiry, expiry by clearing 0', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 10_000);
    const card = await activeCard(api, holder);
    const bal = async () => account(holder.accountId);
    const row = (id: string) => h.orm.em.fork().findOneOrFail(CardTransaction, { id });

    const a = await approvedAuthorization(api, card.id, { amount: 1_000, currency: usd, merchant });
    await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 1_500 }).expect(202);
    expect(await bal()).toMatchObject({ balance: 8_500n, held: 1_500n });
    await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 1_200 }).expect(202);
    expect(await bal()).toMatchObject({ balance: 8_800n, held: 1_200n });
    // A tip: clearing over the authorization pulls the excess.
    await simulate(api, card.id, 'clearing', { cardTransactionId: a, amount: 1_400 }).expect(202);
    expect(await bal()).toMatchObject({ balance: 8_600n, held: 0n });
    expect(await row(a)).toMatchObject({ status: 'SETTLED', settledAmount: 1_400n, pendingPulls: 0 });
    const lateAdvice = await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 2_000 });
    expect(lateAdvice.status).toBe(400);

    await simulate(api, card.id, 'return', { cardTransactionId: a, amount: 400 }).expect(202);
    expect(await row(a)).toMatchObject({ status: 'SETTLED', refundedAmount: 400n });
    expect((await simulate(api, card.id, 'return', { cardTransactionId: a, amount: 1_001 })).status).toBe(400);
    expect((await simulate(api, card.id, 'return_reversal', { cardTransactionId: a })).status).toBe(400);
    await simulate(api, card.id, 'return', { cardTransactionId: a, amount: 1_000 }).expect(202);
    expect(await row(a)).toMatchObject({ status: 'REFUNDED', refundedAmount: 1_400n });
    expect((await bal()).balance).toBe(10_000n);
    await simulate(api, card.id, 'return_reversal', { cardTransactionId: a }).expect(202);
    expect(await row(a)).toMatchObject({ status: 'SETTLED', refundedAmount: 0n });
    expect((await bal()).balance).toBe(8_600n);

    const credit = (await simulate(api, card.id, 'credit_authorization', { amount: 2_500, currency: usd, merchant }).expect(202)).body
      .cardTransactionId as string;
    expect(await row(credit)).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT' });
    expect((await bal()).balance).toBe(8_600n);
    await simulate(api, card.id, 'clearing', { cardTransactionId: credit, amount: 2_500 }).expect(202);
    expect((await bal()).balance).toBe(11_100n);
    const advice = (await simulate(api, card.id, 'credit_authorization_advice', { amount: 100, currency: usd, merchant }).expect(202)).body
      .cardTransactionId as string;
    expect(await row(advice)).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT' });

    const atm = (
      await simulate(api, card.id, 'financial_authorization', { amount: 8_000, currency: usd, merchant: { descriptor: 'ATM WITHDRAWAL' } }).expect(202)
    ).body.cardTransactionId as string;
    expect(await row(atm)).toMatchObject({ status: 'SETTLED', settledAmount: 8_000n });
    expect((await bal()).balance).toBe(3_100n);
    const push = (await simulate(api, card.id, 'financial_credit_authorization', { amount: 900, currency: usd, merchant }).expect(202)).body
      .cardTransactionId as string;
    expect(await row(push)).toMatchObject({ status: 'SETTLED', direction: 'CREDIT' });
    expect((await bal()).balance).toBe(4_000n);

    const inquiry = await simulate(api, card.id, 'balance_inquiry', { merchant: { descriptor: 'FUEL PUMP 7' } });
    expect(inquiry.status).toBe(202);
    expect(inquiry.body.cardTransactionId).toBeUndefined();
    expect((await bal()).balance).toBe(4_000n);

    const lapsed = await approvedAuthorization(api, card.id, { amount: 3_000, currency: usd, merchant });
    expect(await bal()).toMatchObject({ balance: 1_000n, held: 3_000n });
    await simulate(api, card.id, 'clearing', { cardTransactionId: lapsed, amount: 0 }).expect(202);
    expect(await bal()).toMatchObject({ balance: 4_000n, held: 0n });
    expect(await row(lapsed)).toMatchObject({ status: 'SETTLED', settledAmount: 0n, heldAmount: 0n });

    const unknown = await simulate(api, card.id, 'clearing', { cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000000', amount: 1 });
    expect(unknown.status).toBe(400);
    const invalid = await simulate(api, card.id, 'authorization', { amount: -5, currency: usd, merchant: {} });
    expect(invalid.status).toBe(400);
    expect((invalid.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['amount', 'merchant.descriptor']);

    expect((await runLedgerAudit(h.orm.em.fork())).findings.filter((f) => f.subject.includes(platform.id) || f.subject === holder.accountId)).toEqual([]);
  });

  test('an over-auth clearing the funding account cannot cover is forced through: EXCEPTION, the pull charged to the platform', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 1_000);
    const card = await activeCard(api, holder);
    const tx = await approvedAuthorization(api, card.id, { amount: 1_000, currency: usd, merchant });
    await simulate(api, card.id, 'clearing', { cardTransactionId: tx, amount: 1_300 }).expect(202);
    expect(await h.orm.em.fork().findOneOrFail(CardTransaction, { id: tx })).toMatchObject({ status: 'EXCEPTION', settledAmount: 1_300n, heldAmount: 0n });
    // Two pulls; the second failed (charged to the platform), so only the first took money.
    expect((await api.get(`/transactions/${tx}`).expect(200)).body.pullSummary).toEqual({ count: 2, totalAmount: 1_000, pendingCount: 0 });
    expect(await account(holder.accountId)).toMatchObject({ balance: 0n, held: 0n });
    expect((await account(cardNetworkAccountId(platform.id, 'USD'))).balance).toBe(1_300n);
    expect((await account(`Ledger:${platform.id}:RETURN_SHORTFALL:USD`)).balance).toBe(-300n);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CARD_TRANSACTION.EXCEPTION' && x.body.data.id === tx));
    expect((await runLedgerAudit(h.orm.em.fork())).findings.filter((f) => f.subject.includes(platform.id) || f.subject === holder.accountId)).toEqual([]);
  });

  test('simultaneous authorizations never take more than the funding account holds', async () => {
    const { api, platform } = await h.platform();
    const holder = await cardholder(api, 2_000);
    const one = await activeCard(api, holder);
    const two = await activeCard(api, holder);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => simulate(api, i % 2 ? one.id : two.id, 'authorization', { amount: 300, currency: usd, merchant })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
    const approved = answers.filter((r) => !r.body.declineReason);
    expect(approved).toHaveLength(6);
    expect(answers.filter((r) => r.body.declineReason).every((r) => r.body.declineReason === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await account(holder.accountId)).toMatchObject({ balance: 200n, held: 1_800n });
    expect((await account(cardHoldsAccountId(platform.id, 'USD'))).balance).toBe(1_800n);
    const audit = await runLedgerAudit(h.orm.em.fork());
    expect(audit.findings.filter((f) => f.subject.includes(platform.id) || f.subject === holder.accountId)).toEqual([]);
  });
});

describe('pullSummary', () => {
  /** What the ledger took out of the funding account for one card transaction: one amount per entry. */
  const ledgerPulls = async (cardTransactionId: string, fundingAccountId: string) => {
    const em = h.orm.em.fork();
    const entries = await em.find(JournalEntry, { transactionId: cardTransactionId });
    const lines = await em.find(
      Posting,
      { entryId: { $in: entries.map((e) => e.id) }, accountId: fundingAccountId, amount: { $lt: 0n } },
      { orderBy: { id: 'asc' } },
    );
    return lines.map((l) => -l.amount);
  };
  const sum = (xs: bigint[]) => Number(xs.reduce((a, b) => a + b, 0n));

  test('counts every movement out of the funding account: the advice, and the pull of a return reversal', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api, 10_000);
    const card = await activeCard(api, holder);
    const view = async (id: string) => (await api.get(`/transactions/${id}`).expect(200)).body;

    const a = await approvedAuthorization(api, card.id, { amount: 1_000, currency: usd, merchant });
    await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 1_500 }).expect(202);
    expect(await account(holder.accountId)).toMatchObject({ balance: 8_500n, held: 1_500n });
    expect(await ledgerPulls(a, holder.accountId)).toEqual([1_000n, 500n]);
    expect((await view(a)).pullSummary).toEqual({ count: 2, totalAmount: 1_500, pendingCount: 0 });

    // Settling from the hold takes nothing more; the return gives it all back; its reversal takes it again.
    await simulate(api, card.id, 'clearing', { cardTransactionId: a, amount: 1_500 }).expect(202);
    expect((await view(a)).pullSummary).toEqual({ count: 2, totalAmount: 1_500, pendingCount: 0 });
    await simulate(api, card.id, 'return', { cardTransactionId: a, amount: 1_500 }).expect(202);
    expect((await account(holder.accountId)).balance).toBe(10_000n);
    await simulate(api, card.id, 'return_reversal', { cardTransactionId: a }).expect(202);
    expect((await account(holder.accountId)).balance).toBe(8_500n);
    const pulls = await ledgerPulls(a, holder.accountId);
    expect(sum(pulls)).toBe(3_000);
    const after = await view(a);
    expect(after.pullSummary).toEqual({ count: pulls.length, totalAmount: 3_000, pendingCount: 0 });
    expect(after.pullSummary.count).toBe(3);
    // The webhook of the reversal says the same, as of its own transaction.
    type Data = { id: string; status: string; refundSummary: { count: number }; pullSummary: unknown };
    const reversed = (x: { body: { data: Record<string, unknown> } }) => {
      const d = x.body.data as Data;
      return d.id === a && d.status === 'SETTLED' && d.refundSummary?.count === 1;
    };
    await h.receiver.waitFor((hooks) => hooks.some(reversed));
    expect((h.receiver.received.find(reversed)!.body.data as Data).pullSummary).toEqual({ count: 3, totalAmount: 3_000, pendingCount: 0 });
  });

  test('an over-auth clearing and a shrinking advice: what left the account, counted per movement', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api, 10_000);
    const card = await activeCard(api, holder);
    const a = await approvedAuthorization(api, card.id, { amount: 1_000, currency: usd, merchant });
    await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 1_500 }).expect(202);
    await simulate(api, card.id, 'authorization_advice', { cardTransactionId: a, amount: 1_200 }).expect(202);
    await simulate(api, card.id, 'clearing', { cardTransactionId: a, amount: 1_400 }).expect(202);
    expect(await ledgerPulls(a, holder.accountId)).toEqual([1_000n, 500n, 200n]);
    expect((await api.get(`/transactions/${a}`).expect(200)).body.pullSummary).toEqual({ count: 3, totalAmount: 1_700, pendingCount: 0 });
  });
});

describe('card transactions in GET /transactions', () => {
  test('listed with the payments in one order under one cursor; payment-only filters leave them out', async () => {
    const { api } = await h.platform();
    const holder = await cardholder(api, 5_000);
    const card = await activeCard(api, holder);
    const first = await approvedAuthorization(api, card.id, { amount: 100, currency: usd, merchant });
    const second = await approvedAuthorization(api, card.id, { amount: 200, currency: usd, merchant });
    const all = await api.get('/transactions').expect(200);
    const incoming = (all.body.data as { id: string; type: string }[]).find((t) => t.type === 'INCOMING')!.id;
    expect((all.body.data as { id: string }[]).map((t) => t.id)).toEqual([second, first, incoming]);
    expect(all.body.totalCount).toBe(3);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(`/transactions?limit=1&sortOrder=asc${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
      seen.push(...(page.body.data as { id: string }[]).map((t) => t.id));
      cursor = page.body.nextCursor as string | undefined;
    } while (cursor);
    expect(seen).toEqual([incoming, first, second]);

    const ids = async (query: string) => ((await api.get(`/transactions${query}`).expect(200)).body.data as { id: string }[]).map((t) => t.id);
    expect(await ids('?type=INCOMING')).toEqual([incoming]);
    expect(await ids('?status=COMPLETED')).toEqual([incoming]);
    expect(await ids(`?customerId=${encodeURIComponent(holder.customerId)}`)).toEqual([second, first, incoming]);
    expect(await ids(`?accountIdentifier=${encodeURIComponent(holder.accountId)}`)).toEqual([second, first, incoming]);
    expect(await ids(`?startDate=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });
});

describe('tenant isolation', () => {
  test("another platform's credentials get 404 on every card endpoint and change nothing", async () => {
    const owner = await h.platform();
    const holder = await cardholder(owner.api, 5_000);
    const card = await activeCard(owner.api, holder);
    const tx = await approvedAuthorization(owner.api, card.id, { amount: 1_000, currency: usd, merchant });
    const intruder = await h.platform();
    const notFound = async (res: { status: number; body: { code?: string } }) => {
      expect(res.status).toBe(404);
    };
    await notFound(await intruder.api.get(`/cards/${card.id}`));
    await notFound(await intruder.api.patch(`/cards/${card.id}`, { state: 'FROZEN' }));
    await notFound(await intruder.api.post(`/cards/${card.id}/reveal`));
    for (const [what, body] of [
      ['authorization', { amount: 100, currency: usd, merchant }],
      ['clearing', { cardTransactionId: tx, amount: 1_000 }],
      ['return', { cardTransactionId: tx, amount: 1 }],
      ['balance_inquiry', { merchant }],
      ['credit_authorization', { amount: 100, currency: usd, merchant }],
      ['financial_authorization', { amount: 100, currency: usd, merchant }],
      ['financial_credit_authorization', { amount: 100, currency: usd, merchant }],
      ['authorization_advice', { cardTransactionId: tx, amount: 5 }],
      ['credit_authorization_advice', { amount: 100, currency: usd, merchant }],
      ['return_reversal', { cardTransactionId: tx }],
    ] as const) {
      await notFound(await simulate(intruder.api, card.id, what, body));
    }
    expect((await intruder.api.get('/cards').expect(200)).body).toMatchObject({ data: [], totalCount: 0 });
    expect((await intruder.api.get(`/transactions/${tx}`)).status).toBe(404);
    expect(((await intruder.api.get('/transactions').expect(200)).body.data as { id: string }[]).some((t) => t.id === tx)).toBe(false);
    expect((await intruder.api.get(`/cards?cardholderId=${encodeURIComponent(holder.customerId)}`).expect(200)).body.data as unknown[]).toHaveLength(0);
    // Nothing changed: still ACTIVE, still authorized, still held.
    expect((await owner.api.get(`/cards/${card.id}`)).body.state).toBe('ACTIVE');
    expect(await h.orm.em.fork().findOneOrFail(CardTransaction, { id: tx })).toMatchObject({ status: 'AUTHORIZED', heldAmount: 1_000n });
    expect(await account(holder.accountId)).toMatchObject({ balance: 4_000n, held: 1_000n });
  });
});
