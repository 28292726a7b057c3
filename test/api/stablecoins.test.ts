import { randomUUID } from 'node:crypto';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { JournalEntry, LedgerAccount } from '../../src/contexts/ledger/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Stablecoin, StablecoinOperation, StablecoinProviderAccount } from '../../src/contexts/stablecoins/entities';
import { recordFunding } from '../../src/contexts/stablecoins/services/operations';
import { strandedIssuances } from '../../src/contexts/stablecoins/services/stranded-stablecoin-work';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { reserveAccountId, supplyAccountId } from '../../src/contexts/stablecoins/services/stablecoin-ledger';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { operatorCommand } from '../../src/cli/stablecoin-operator';
import { decrypt, encrypt } from '../../src/security/secrets';
import { eventually } from '../support/eventually';
import { usdAccount } from '../support/external-account-fixtures';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { Api, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
}, 120_000);
afterAll(async () => {
  await h.stop();
});

const key = () => ({ 'Idempotency-Key': randomUUID() });
const operator = (...args: string[]) => operatorCommand(h.orm.em.fork(), args);
const SPARK_ADDRESS = 'sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4';

async function link(api: Api, clientId = `client-${randomUUID().slice(0, 8)}`, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/stablecoin-provider-accounts',
    { provider: 'BRALE', apiClientId: clientId, apiClientSecret: 'sk_sandbox_brale_secret', ...extra },
    key(),
  );
  expect(res.status).toBe(201);
  return res.body as { id: string; providerAccountId: string; status: string };
}

async function register(api: Api, providerTokenIdentifier: string, extra: Record<string, unknown> = {}) {
  return api.post(
    '/stablecoins',
    { providerTokenIdentifier, networkTokenIdentifier: `btkn1${providerTokenIdentifier.toLowerCase()}${randomUUID().slice(0, 6)}`, network: 'SPARK', ...extra },
    key(),
  );
}

const coinStatus = (api: Api, id: string, status: string) =>
  eventually(
    () => api.get(`/stablecoins/${id}`),
    (r) => r.body.issuanceStatus === status,
  );
const operationStatus = (api: Api, id: string, status: string) =>
  eventually(
    () => api.get(`/stablecoin-operations/${id}`),
    (r) => r.body.status === status,
    20_000,
  );

/** A platform account whose bank validation window has passed (the sandbox's takes ten seconds). */
async function bankAccount(api: Api, accountNumber = '123456789', extra: Record<string, unknown> = {}) {
  const res = await api.post('/platform/external-accounts', usdAccount(accountNumber, extra));
  expect(res.status).toBe(201);
  await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: res.body.id }, { bankValidation: 'PASSED' });
  return res.body.id as string;
}

async function sparkWallet(api: Api) {
  const res = await api.post('/platform/external-accounts', { currency: 'USDB', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_ADDRESS } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** An issuer: a platform with a provider link, a PROVISIONED 6-decimal token, a Spark wallet and a bank account. */
async function issuer(symbol = 'ACME') {
  const { api, platform } = await h.platform();
  const providerLink = await link(api);
  const created = await register(api, symbol);
  expect(created.status).toBe(201);
  const coin = (await coinStatus(api, created.body.id, 'PROVISIONED')).body as { id: string; decimals: number };
  expect(coin).toMatchObject({ issuanceStatus: 'PROVISIONED', decimals: 6 });
  return { api, platform, link: providerLink, coin, wallet: await sparkWallet(api), bank: await bankAccount(api) };
}

const mint = (api: Api, coinId: string, body: Record<string, unknown>, headers: Record<string, string> = key()) =>
  api.post(`/stablecoins/${coinId}/mints`, body, headers);
const burn = (api: Api, coinId: string, body: Record<string, unknown>, headers: Record<string, string> = key()) =>
  api.post(`/stablecoins/${coinId}/burns`, body, headers);
const balance = async (id: string) => (await h.orm.em.fork().findOne(LedgerAccount, { id }))?.balance ?? 0n;

describe('provider account links', () => {
  test('linking stores the credentials sealed, answers ACTIVE once, and a repeat with the key answers the same link', async () => {
    const { api, platform } = await h.platform();
    const headers = key();
    const body = { provider: 'BRALE', apiClientId: 'acme-client', apiClientSecret: 'sk_live_looking_secret_1234' };
    const res = await api.post('/stablecoin-provider-accounts', body, headers);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      status: 'ACTIVE',
      providerAccountId: expect.stringMatching(/^brale_/),
    });
    expect(res.body.lastVerifiedAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain('sk_live_looking_secret_1234');
    const again = await api.post('/stablecoin-provider-accounts', body, headers);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(res.body.id);

    const stored = await h.orm.em.fork().findOneOrFail(StablecoinProviderAccount, { id: res.body.id }, { populate: ['sealedCredentials'] });
    expect(stored.sealedCredentials).not.toContain('sk_live_looking_secret_1234');
    expect(JSON.parse(decrypt(h.masterKey, stored.sealedCredentials))).toEqual({ apiClientId: 'acme-client', apiClientSecret: 'sk_live_looking_secret_1234' });
    expect((await api.get(`/stablecoin-provider-accounts/${res.body.id}`)).body).toEqual(res.body);
    const list = await api.get('/stablecoin-provider-accounts?status=ACTIVE&provider=BRALE');
    expect(list.body).toMatchObject({ data: [res.body], hasMore: false, totalCount: 1 });
    expect((await api.get('/stablecoin-provider-accounts?status=REVOKED')).body.data).toEqual([]);

    // The same provider account under another key is a conflict, not a second link.
    const twice = await api.post('/stablecoin-provider-accounts', body, key());
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('CONFLICT');
    expect(await h.orm.em.fork().count(StablecoinProviderAccount, { platformId: platform.id })).toBe(1);
  });

  test('refusals: no Idempotency-Key, credentials the provider rejects, several accounts without a choice, an account the credentials do not reach', async () => {
    const { api, platform } = await h.platform();
    const noKey = await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'c', apiClientSecret: 's' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.details.errors).toEqual([
      expect.objectContaining({ field: 'Idempotency-Key', constraint: expect.objectContaining({ rule: 'required' }) }),
    ]);

    const bad = await api.post('/stablecoin-provider-accounts', { provider: 'TETHER', apiClientId: '', apiClientSecret: 's', extra: 1 }, key());
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['apiClientId', 'body', 'provider']);

    const rejected = await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'c', apiClientSecret: 'invalid-secret' }, key());
    expect(rejected.status).toBe(400);
    expect(rejected.body.code).toBe('STABLECOIN_VERIFICATION_FAILED');

    const several = await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'multi-1', apiClientSecret: 's' }, key());
    expect(several.status).toBe(400);
    expect(several.body.code).toBe('INVALID_INPUT');
    expect(several.body.details.errors[0].field).toBe('providerAccountId');

    const elsewhere = await api.post(
      '/stablecoin-provider-accounts',
      { provider: 'BRALE', apiClientId: 'multi-1', apiClientSecret: 's', providerAccountId: 'brale_someone_else' },
      key(),
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('STABLECOIN_VERIFICATION_FAILED');
    expect(await h.orm.em.fork().count(StablecoinProviderAccount, { platformId: platform.id })).toBe(0);

    const unreachable = await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'unreachable-1', apiClientSecret: 's' }, key());
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(await h.orm.em.fork().count(StablecoinProviderAccount, { platformId: platform.id })).toBe(0);

    const chosen = await link(api, 'multi-1', { providerAccountId: several.body.details.errors[0].message.match(/brale_[0-9a-f]+-b/)[0] });
    expect(chosen.providerAccountId).toMatch(/-b$/);

    expect((await api.get('/stablecoin-provider-accounts/StablecoinProviderAccount:00000000-0000-4000-8000-000000000000')).body.code).toBe(
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
    expect((await api.get('/stablecoin-provider-accounts?colour=blue')).status).toBe(400);
  });

  test('production tokens are refused: no provider is connected outside the sandbox, and a sandbox link is not theirs to use', async () => {
    const { api, platform } = await h.platform({ environment: 'PRODUCTION' });
    const res = await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'c', apiClientSecret: 's' }, key());
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('NOT_IMPLEMENTED');
    // The same platform's sandbox link, named by a production token.
    const sandboxToken = await createToken(h.orm.em.fork(), h.masterKey, platform.id, 'SANDBOX');
    const sandbox = new Api(h.app, `Basic ${Buffer.from(`${sandboxToken.tokenId}:${sandboxToken.clientSecret}`).toString('base64')}`);
    const sandboxLink = await link(sandbox);
    const named = await register(api, 'ACME', { stablecoinProviderAccountId: sandboxLink.id });
    expect(named.status).toBe(501);
    expect(await h.orm.em.fork().count(Stablecoin, { platformId: platform.id })).toBe(0);
  });
});

describe('registering stablecoins', () => {
  test('PENDING_REVIEW with the provider’s metadata, then PROVISIONED by the issuance workflow; a repeat with the key is the same coin', async () => {
    const { api } = await h.platform();
    const providerLink = await link(api);
    const headers = key();
    const body = { providerTokenIdentifier: 'ACME', networkTokenIdentifier: 'btkn1acmetoken', network: 'SPARK' };
    const created = await api.post('/stablecoins', body, headers);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ACME Dollar',
      symbol: 'ACME',
      baseCurrency: 'USD',
      decimals: 6,
      network: 'SPARK',
      issuanceStatus: 'PENDING_REVIEW',
      svcOperationsStatus: 'NOT_ENABLED',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: providerLink.id,
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: 'btkn1acmetoken',
    });
    expect(created.body.currency).toBeUndefined();
    expect((await api.post('/stablecoins', body, headers)).body.id).toBe(created.body.id);
    await coinStatus(api, created.body.id, 'PROVISIONED');
    const handle = h.temporal.workflow.getHandle(created.body.id);
    expect((await handle.result()) as unknown).toEqual({ issuanceStatus: 'PROVISIONED' });

    const list = await api.get('/stablecoins?issuanceStatus=PROVISIONED&svcOperationsStatus=NOT_ENABLED&provider=BRALE');
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expect((await api.get('/stablecoins?issuanceStatus=REJECTED')).body.data).toEqual([]);
    expect((await api.get('/stablecoins?issuanceStatus=SOMETHING')).status).toBe(400);
  });

  test('a registration whose issuance workflow never started is picked up by the sweep, in its platform only, after the grace period', async () => {
    const { api, platform } = await h.platform();
    await link(api);
    const created = await register(api, 'ACME');
    expect(created.status).toBe(201);
    // As if the process had died before the start: no workflow moves it on.
    await h.temporal.workflow.getHandle(created.body.id).terminate('test: stranded');
    const sweep = (options: { graceMs?: number; platformId?: string }) =>
      startStrandedOf(h.orm, h.temporal, strandedIssuances, { taskQueue: h.taskQueue, platformId: platform.id, ...options });
    expect(await sweep({})).not.toContain(created.body.id);
    // Recorded two minutes ago and still in review (however far the terminated run had got).
    await h.orm.em.fork().nativeUpdate(Stablecoin, { id: created.body.id }, { issuanceStatus: 'PENDING_REVIEW', createdAt: new Date(Date.now() - 120_000) });
    expect(await sweep({ platformId: (await h.platform()).platform.id })).toEqual([]);
    expect(await sweep({})).toEqual([created.body.id]);
    await coinStatus(api, created.body.id, 'PROVISIONED');
  });

  test('the token and its symbol are taken while the registration lives; a REJECTED or FAILED one frees them', async () => {
    const { api } = await h.platform();
    await link(api);
    const first = await api.post('/stablecoins', { providerTokenIdentifier: 'ZED', networkTokenIdentifier: 'btkn1zed', network: 'SPARK' }, key());
    expect(first.status).toBe(201);
    const sameToken = await api.post('/stablecoins', { providerTokenIdentifier: 'ZED', networkTokenIdentifier: 'btkn1other', network: 'SPARK' }, key());
    expect(sameToken.status).toBe(409);
    expect(sameToken.body.code).toBe('STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS');
    const sameNetworkToken = await api.post('/stablecoins', { providerTokenIdentifier: 'YAK', networkTokenIdentifier: 'btkn1zed', network: 'SPARK' }, key());
    expect(sameNetworkToken.body.code).toBe('STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS');
    const sameSymbol = await api.post('/stablecoins', { providerTokenIdentifier: 'ZED_D2', networkTokenIdentifier: 'btkn1zed2', network: 'SPARK' }, key());
    expect(sameSymbol.status).toBe(409);
    expect(sameSymbol.body.code).toBe('STABLECOIN_SYMBOL_ALREADY_EXISTS');

    const rejected = await register(api, 'REJECTME');
    expect(rejected.status).toBe(201);
    expect((await coinStatus(api, rejected.body.id, 'REJECTED')).body.issuanceStatus).toBe('REJECTED');
    const failed = await register(api, 'FAILING_D2');
    expect((await coinStatus(api, failed.body.id, 'FAILED')).body).toMatchObject({ issuanceStatus: 'FAILED', symbol: 'FAILING', decimals: 2 });
    // The rejected registration holds nothing: the same token registers again (and is rejected again by the sandbox).
    expect(
      (
        await api.post(
          '/stablecoins',
          { providerTokenIdentifier: 'REJECTME', networkTokenIdentifier: rejected.body.networkTokenIdentifier, network: 'SPARK' },
          key(),
        )
      ).status,
    ).toBe(201);
  });

  test('refusals: no link (404), the provider does not know the token or fails, several ACTIVE links need a choice, an INVALID or REVOKED link', async () => {
    const { api } = await h.platform();
    const none = await register(api, 'ACME');
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    const first = await link(api);
    const unknown = await register(api, 'UNKNOWNCOIN');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'STABLECOIN_VERIFICATION_FAILED',
      details: { errors: [expect.objectContaining({ field: 'providerTokenIdentifier' })] },
    });
    const pinnedElsewhere = await api.post(
      '/stablecoins',
      { providerTokenIdentifier: 'PINNEDCOIN', networkTokenIdentifier: 'btkn1somethingelse', network: 'SPARK' },
      key(),
    );
    expect(pinnedElsewhere.status).toBe(400);
    expect(pinnedElsewhere.body).toMatchObject({
      code: 'STABLECOIN_VERIFICATION_FAILED',
      details: { errors: [expect.objectContaining({ field: 'networkTokenIdentifier' })] },
    });
    const pinned = await api.post(
      '/stablecoins',
      { providerTokenIdentifier: 'PINNEDCOIN', networkTokenIdentifier: 'btkn1pinnedcoin', network: 'SPARK' },
      key(),
    );
    expect(pinned.status).toBe(201);
    const failing = await register(api, 'ERRORCOIN');
    expect(failing.status).toBe(400);
    expect(failing.body.code).toBe('STABLECOIN_PROVIDER_ERROR');

    const second = await link(api);
    const ambiguous = await register(api, 'ACME');
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED');
    const elsewhere = await register(api, 'ACME', { stablecoinProviderAccountId: 'StablecoinProviderAccount:00000000-0000-4000-8000-000000000000' });
    expect(elsewhere.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');

    expect(await operator('link', second.id, 'INVALID')).toMatchObject({ id: second.id, status: 'INVALID' });
    const invalid = await register(api, 'ACME', { stablecoinProviderAccountId: second.id });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_INVALID');
    await operator('link', second.id, 'REVOKED');
    const revoked = await register(api, 'ACME', { stablecoinProviderAccountId: second.id });
    expect(revoked.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_REVOKED');
    await expect(operator('link', second.id, 'ACTIVE')).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });

    // One ACTIVE link left: chosen without naming it.
    const chosen = await register(api, 'ACME');
    expect(chosen.status).toBe(201);
    expect(chosen.body.stablecoinProviderAccountId).toBe(first.id);
    expect(await h.orm.em.fork().count(Stablecoin, { providerTokenIdentifier: { $in: ['UNKNOWNCOIN', 'ERRORCOIN'] } })).toBe(0);
  });

  test('a link whose credentials the provider stops accepting becomes INVALID when next used', async () => {
    const { api } = await h.platform();
    const providerLink = await link(api);
    // The provider rotated the secret: reseal the stored credentials with one it now refuses.
    await h.orm.em
      .fork()
      .nativeUpdate(
        StablecoinProviderAccount,
        { id: providerLink.id },
        { sealedCredentials: encrypt(h.masterKey, JSON.stringify({ apiClientId: 'x', apiClientSecret: 'invalid-now' })) },
      );
    const res = await register(api, 'ACME');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_INVALID');
    expect((await api.get(`/stablecoin-provider-accounts/${providerLink.id}`)).body.status).toBe('INVALID');
  });
});

describe('grid enablement (spec §3)', () => {
  test('requestable only from NOT_ENABLED, a repeat while PENDING_APPROVAL succeeds, the operator’s states are 409', async () => {
    const { api } = await h.platform();
    await link(api);
    const created = await register(api, 'GRID');
    const early = await api.post(`/stablecoins/${created.body.id}/grid-enablement`);
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('STABLECOIN_NOT_PROVISIONED');
    await coinStatus(api, created.body.id, 'PROVISIONED');
    const id = created.body.id as string;

    const asked = await api.post(`/stablecoins/${id}/grid-enablement`);
    expect(asked.status).toBe(200);
    expect(asked.body.svcOperationsStatus).toBe('PENDING_APPROVAL');
    const again = await api.post(`/stablecoins/${id}/grid-enablement`);
    expect(again.status).toBe(200);
    expect(again.body.svcOperationsStatus).toBe('PENDING_APPROVAL');

    await expect(operator('grid', id, 'ENABLED')).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    for (const [status, currency] of [
      ['ENABLING', undefined],
      ['ENABLED', 'GRID'],
      ['DISABLED', 'GRID'],
    ] as const) {
      expect(await operator('grid', id, status)).toMatchObject({ svcOperationsStatus: status });
      const refused = await api.post(`/stablecoins/${id}/grid-enablement`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE');
      const shown = (await api.get(`/stablecoins/${id}`)).body;
      expect(shown.svcOperationsStatus).toBe(status);
      expect(shown.currency).toBe(currency);
    }
    // Declined requests go back to NOT_ENABLED, from where the platform may ask again.
    const other = await register(api, 'DECLINED');
    await coinStatus(api, other.body.id, 'PROVISIONED');
    await api.post(`/stablecoins/${other.body.id}/grid-enablement`);
    await operator('grid', other.body.id, 'NOT_ENABLED');
    expect((await api.post(`/stablecoins/${other.body.id}/grid-enablement`)).body.svcOperationsStatus).toBe('PENDING_APPROVAL');
    expect((await api.get('/stablecoins?svcOperationsStatus=PENDING_APPROVAL')).body.data.map((c: { id: string }) => c.id)).toEqual([other.body.id]);
  });
});

describe('mints', () => {
  test('wire-funded: PENDING_FUNDING with wire instructions, funds arrive, the provider mints; reserve and supply move together in the ledger', async () => {
    const { api, platform, coin, wallet, link: providerLink } = await issuer();
    const res = await mint(api, coin.id, {
      amount: '25000000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: wallet },
      description: 'Initial program funding',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      stablecoinId: coin.id,
      operationType: 'MINT',
      status: 'PENDING_FUNDING',
      amount: '25000000',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: providerLink.id,
      source: { type: 'WIRE' },
      destination: { accountId: wallet },
      fundingInstructions: {
        rail: 'WIRE',
        routingNumber: '021000021',
        accountNumber: expect.stringMatching(/^\d+$/),
        reference: expect.stringMatching(/^MINT-/),
        valueType: 'ACME',
      },
      description: 'Initial program funding',
    });
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now() + 50 * 60_000);
    const id = res.body.id as string;
    const funded = await api.post(`/sandbox/stablecoin-operations/${id}/fund`);
    expect(funded.status).toBe(200);
    expect(funded.body.status).toBe('PENDING_PROVIDER');
    // The funding step retried after it committed (its worker died before reporting) finds the funds recorded.
    expect(['PENDING_PROVIDER', 'PROCESSING', 'COMPLETED']).toContain((await recordFunding(h.orm.em.fork(), id)).status);
    expect((await operationStatus(api, id, 'COMPLETED')).body).toMatchObject({ status: 'COMPLETED', providerStatus: 'complete' });
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(2500n);
    expect(await balance(supplyAccountId(platform.id, coin.id))).toBe(-2500n);
    expect(await h.orm.em.fork().count(JournalEntry, { idempotencyKey: `stablecoin-operation:${id}` })).toBe(1);
    expect((await runLedgerAudit(h.orm.em.fork())).findings.filter((f) => f.subject.includes(platform.id))).toEqual([]);
    expect(((await h.temporal.workflow.getHandle(id).result()) as { status: string }).status).toBe('COMPLETED');
    const again = await api.post(`/sandbox/stablecoin-operations/${id}/fund`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE_TRANSITION');
  });

  test('ACH debit and provider balance funding complete without waiting for funds; a repeat with the key is the same operation', async () => {
    const { api, platform, coin, wallet, bank } = await issuer();
    const headers = key();
    const body = { amount: '1000000', fundingSource: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: bank }, destination: { accountId: wallet } };
    const ach = await mint(api, coin.id, body, headers);
    expect(ach.status).toBe(201);
    expect(ach.body).toMatchObject({ status: 'PENDING_PROVIDER', source: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: bank } });
    expect(ach.body.fundingInstructions).toBeUndefined();
    expect((await mint(api, coin.id, body, headers)).body.id).toBe(ach.body.id);
    // The answer lost (committed, then the process died before storing it): the retry finds the same operation.
    await h.orm.em.fork().nativeDelete(IdempotencyRecord, { platformId: platform.id, key: headers['Idempotency-Key'] });
    const retried = await mint(api, coin.id, body, headers);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(ach.body.id);
    const fromBalance = await mint(api, coin.id, {
      amount: '2000000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' },
      destination: { accountId: wallet },
    });
    expect(fromBalance.status).toBe(201);
    await operationStatus(api, ach.body.id, 'COMPLETED');
    await operationStatus(api, fromBalance.body.id, 'COMPLETED');
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(300n);
    expect(await h.orm.em.fork().count(StablecoinOperation, { stablecoinId: coin.id })).toBe(2);

    const list = await api.get(`/stablecoins/${coin.id}/operations?operationType=MINT&limit=1`);
    expect(list.body).toMatchObject({ data: [{ id: fromBalance.body.id }], hasMore: true, totalCount: 2 });
    const next = await api.get(`/stablecoins/${coin.id}/operations?operationType=MINT&limit=1&cursor=${encodeURIComponent(list.body.nextCursor)}`);
    expect(next.body.data.map((o: { id: string }) => o.id)).toEqual([ach.body.id]);
    expect((await api.get(`/stablecoins/${coin.id}/operations?operationType=BURN`)).body.data).toEqual([]);
    expect((await api.get(`/stablecoins/${coin.id}/operations?status=COMPLETED`)).status).toBe(400);
  });

  test('amounts: not a whole cent is STABLECOIN_AMOUNT_NOT_REPRESENTABLE, zero or not digits INVALID_INPUT; no Idempotency-Key is refused; nothing is recorded', async () => {
    const { api, coin, wallet } = await issuer();
    const body = (amount: string) => ({ amount, fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } });
    const fraction = await mint(api, coin.id, body('1005000'));
    expect(fraction.status).toBe(400);
    expect(fraction.body).toMatchObject({ code: 'STABLECOIN_AMOUNT_NOT_REPRESENTABLE', details: { errors: [expect.objectContaining({ field: 'amount' })] } });
    expect((await mint(api, coin.id, body('0'))).body.code).toBe('INVALID_INPUT');
    const letters = await mint(api, coin.id, { amount: '1.5', fundingSource: { type: 'CARD' }, destination: {} });
    expect(letters.status).toBe(400);
    expect(letters.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'destination.accountId', 'fundingSource.type']);
    const noKey = await api.post(`/stablecoins/${coin.id}/mints`, body('1000000'));
    expect(noKey.status).toBe(400);
    expect(noKey.body.details.errors[0].field).toBe('Idempotency-Key');
    expect(await h.orm.em.fork().count(StablecoinOperation, { stablecoinId: coin.id })).toBe(0);
  });

  test('a 2-decimal token: every whole unit is a cent', async () => {
    const { api, platform } = await h.platform();
    await link(api);
    const created = await register(api, 'CENT_D2');
    const coin = (await coinStatus(api, created.body.id, 'PROVISIONED')).body as { id: string; decimals: number };
    expect(coin.decimals).toBe(2);
    const res = await mint(api, coin.id, {
      amount: '1234',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDB', cryptoNetwork: 'SPARK' },
      destination: { accountId: await sparkWallet(api) },
    });
    expect(res.status).toBe(201);
    await operationStatus(api, res.body.id, 'COMPLETED');
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(1234n);
  });

  test('the sandbox provider refuses a 13.13 order (STABLECOIN_PROVIDER_ERROR, the operation FAILED) and fails a 14.14 one after accepting it', async () => {
    const { api, platform, coin, wallet } = await issuer();
    const refused = await mint(api, coin.id, { amount: '13130000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('STABLECOIN_PROVIDER_ERROR');
    const refusedId = refused.body.details.stablecoinOperationId as string;
    expect((await api.get(`/stablecoin-operations/${refusedId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_REJECTED' });

    const failing = await mint(api, coin.id, {
      amount: '14140000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'BASE' },
      destination: { accountId: wallet },
    });
    expect(failing.status).toBe(201);
    expect((await operationStatus(api, failing.body.id, 'FAILED')).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PROVIDER_TRANSFER_FAILED',
      providerStatus: 'failed',
    });
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(0n);
  });

  test('a wire that never comes: EXPIRED when the funding window closes; funds after that are refused', async () => {
    const { api, coin, wallet } = await issuer();
    process.env.SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS = '2';
    let id: string;
    try {
      const res = await mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } });
      expect(res.status).toBe(201);
      id = res.body.id as string;
    } finally {
      delete process.env.SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS;
    }
    expect((await operationStatus(api, id, 'EXPIRED')).body).toMatchObject({ status: 'EXPIRED', providerStatus: 'expired' });
    const late = await api.post(`/sandbox/stablecoin-operations/${id}/fund`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('INVALID_STATE_TRANSITION');
  });

  test('external accounts: the wrong kind, a customer’s, no account type for a debit, and the provider’s link outcomes', async () => {
    const { api, coin, wallet, bank } = await issuer();
    const wire = (destination: string) => mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: destination } });
    const debit = (externalAccountId: string) =>
      mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'ACH_DEBIT', externalAccountId }, destination: { accountId: wallet } });

    expect((await wire(bank)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    expect((await debit(wallet)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID()}`, fullName: 'Ada Lovelace' });
    const customersAccount = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...usdAccount('555666777') });
    expect(customersAccount.status).toBe(201);
    expect((await debit(customersAccount.body.id)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    const unknown = await debit('ExternalAccount:00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);

    const untyped = await bankAccount(api, '900000001', { bankAccountType: undefined });
    expect((await debit(untyped)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED');

    const refused = await bankAccount(api, '900000201');
    expect((await debit(refused)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED');
    expect((await debit(refused)).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED');
    expect((await debit(await bankAccount(api, '900000202'))).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED');
    expect((await debit(await bankAccount(api, '900000203'))).body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED');
    expect(await h.orm.em.fork().count(StablecoinOperation, { stablecoinId: coin.id })).toBe(0);
  });

  test('provider balances it does not hold, and the Grid-internal flows: not enabled, then reserved for a later version', async () => {
    const { api, coin, wallet } = await issuer();
    const notHeld = await mint(api, coin.id, {
      amount: '1000000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDT', cryptoNetwork: 'TRON' },
      destination: { accountId: wallet },
    });
    expect(notHeld.body.code).toBe('STABLECOIN_PROVIDER_SOURCE_NOT_LINKED');

    const internal = 'InternalAccount:00000000-0000-4000-8000-000000000000';
    const internalFunding = () =>
      mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'SVC_INTERNAL_ACCOUNT', accountId: internal }, destination: { accountId: wallet } });
    const internalDestination = () => mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: internal } });
    const internalBurn = () =>
      burn(api, coin.id, {
        amount: '1000000',
        source: { type: 'SVC_INTERNAL_ACCOUNT', accountId: internal },
        destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: wallet, rail: 'WIRE' },
      });
    for (const attempt of [internalFunding, internalDestination, internalBurn])
      expect((await attempt()).body.code).toBe('STABLECOIN_GRID_OPERATIONS_NOT_ENABLED');
    await api.post(`/stablecoins/${coin.id}/grid-enablement`);
    await operator('grid', coin.id, 'ENABLING');
    await operator('grid', coin.id, 'ENABLED');
    expect((await internalFunding()).body.code).toBe('STABLECOIN_OPERATION_NOT_SUPPORTED');
    expect((await internalDestination()).body.code).toBe('STABLECOIN_OPERATION_NOT_SUPPORTED');
    expect((await internalBurn()).body.code).toBe('STABLECOIN_BURN_SOURCE_NOT_SUPPORTED');
  });

  test('an order the provider accepted completes even if its link is revoked meanwhile', async () => {
    const { api, platform, coin, wallet, link: providerLink } = await issuer();
    const res = await mint(api, coin.id, {
      amount: '3000000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' },
      destination: { accountId: wallet },
    });
    expect(res.body.status).toBe('PENDING_PROVIDER');
    await operator('link', providerLink.id, 'REVOKED');
    expect((await operationStatus(api, res.body.id, 'COMPLETED')).body.status).toBe('COMPLETED');
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(300n);
  });

  test('a coin not PROVISIONED, and a link revoked or no longer accepted, refuse mints', async () => {
    const { api, coin, wallet, link: providerLink } = await issuer();
    const pending = await register(api, 'LATER');
    const early = await mint(api, pending.body.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('STABLECOIN_NOT_PROVISIONED');
    await coinStatus(api, pending.body.id, 'PROVISIONED');
    await operator('link', providerLink.id, 'INVALID');
    expect((await mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } })).body.code).toBe(
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    );
    await operator('link', providerLink.id, 'REVOKED');
    expect((await mint(api, coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } })).body.code).toBe(
      'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
    );
  });
});

describe('burns', () => {
  test("the fiat goes out only by a rail the bank account's paymentRails allow", async () => {
    const { api, coin } = await issuer();
    const wireOnly = await bankAccount(api, '223456789', { paymentRails: ['WIRE'] });
    const byAch = await burn(api, coin.id, {
      amount: '1000000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: wireOnly, rail: 'ACH_CREDIT' },
    });
    expect(byAch.status).toBe(400);
    expect(byAch.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'destination.rail', message: expect.stringContaining('WIRE') })] },
    });
    // By wire the rail is allowed: what stops this burn is the supply (none minted yet).
    const byWire = await burn(api, coin.id, {
      amount: '1000000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: wireOnly, rail: 'WIRE' },
    });
    expect(byWire.body.code).toBe('INSUFFICIENT_FUNDS');
  });

  test('only the outstanding supply can be burned; from an external wallet the tokens are awaited at a deposit address; the fiat goes to a bank account', async () => {
    const { api, platform, coin, wallet, bank } = await issuer();
    const destination = { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'ACH_CREDIT' };
    const tooMuch = await burn(api, coin.id, { amount: '1000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');

    const minted = await mint(api, coin.id, {
      amount: '5000000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'ETHEREUM' },
      destination: { accountId: wallet },
    });
    await operationStatus(api, minted.body.id, 'COMPLETED');

    const toWallet = await burn(api, coin.id, {
      amount: '1000000',
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { ...destination, externalAccountId: wallet },
    });
    expect(toWallet.body.code).toBe('STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');

    const fromWallet = await burn(api, coin.id, { amount: '3000000', source: { type: 'EXTERNAL_ACCOUNT' }, destination, description: 'Redeem' });
    expect(fromWallet.status).toBe(201);
    expect(fromWallet.body).toMatchObject({
      operationType: 'BURN',
      status: 'PENDING_FUNDING',
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { accountId: bank, rail: 'ACH_CREDIT' },
      fundingInstructions: { rail: 'SPARK', network: 'SPARK', address: expect.stringMatching(/^sparkrt1/), valueType: 'ACME' },
      estimatedDelivery: { rail: 'ACH_CREDIT', amount: '300', currency: 'USD', timing: '1-3 business days' },
    });
    // 3.00 of the 5.00 outstanding is claimed by the burn under way: 2.50 more is too much.
    const overClaimed = await burn(api, coin.id, { amount: '2500000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination });
    expect(overClaimed.body.code).toBe('INSUFFICIENT_FUNDS');
    const rest = await burn(api, coin.id, {
      amount: '2000000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { ...destination, rail: 'RTP_CREDIT' },
    });
    expect(rest.status).toBe(201);
    expect(rest.body.status).toBe('PENDING_PROVIDER');

    expect((await api.post(`/sandbox/stablecoin-operations/${fromWallet.body.id}/fund`)).status).toBe(200);
    await operationStatus(api, fromWallet.body.id, 'COMPLETED');
    await operationStatus(api, rest.body.id, 'COMPLETED');
    expect(await balance(reserveAccountId(platform.id, coin.id))).toBe(0n);
    expect(await balance(supplyAccountId(platform.id, coin.id))).toBe(0n);
    expect((await runLedgerAudit(h.orm.em.fork())).findings.filter((f) => f.subject.includes(platform.id))).toEqual([]);
    expect((await api.get(`/stablecoins/${coin.id}/operations?operationType=BURN`)).body.totalCount).toBe(2);
  });
});

describe('tenant isolation', () => {
  test('another platform sees none of an issuer’s links, coins or operations and can act on none of them', async () => {
    const a = await issuer();
    const op = await mint(a.api, a.coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: a.wallet } });
    expect(op.status).toBe(201);
    const { api: b } = await h.platform();
    await link(b);
    expect((await b.get(`/stablecoin-provider-accounts/${a.link.id}`)).status).toBe(404);
    expect((await b.get(`/stablecoins/${a.coin.id}`)).status).toBe(404);
    expect((await b.get(`/stablecoins/${a.coin.id}/operations`)).status).toBe(404);
    expect((await b.get(`/stablecoin-operations/${op.body.id}`)).status).toBe(404);
    expect((await mint(b, a.coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: a.wallet } })).status).toBe(404);
    expect((await b.post(`/stablecoins/${a.coin.id}/grid-enablement`)).status).toBe(404);
    expect((await b.post(`/sandbox/stablecoin-operations/${op.body.id}/fund`)).status).toBe(404);
    expect((await register(b, 'ACME', { stablecoinProviderAccountId: a.link.id })).body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    // The same token and symbol are free on another platform.
    expect((await register(b, 'ACME')).status).toBe(201);
    const bLists = JSON.stringify([(await b.get('/stablecoin-provider-accounts')).body, (await b.get('/stablecoins')).body]);
    for (const aId of [a.link.id, a.link.providerAccountId, a.coin.id, op.body.id]) expect(bLists).not.toContain(aId);
    expect((await b.get('/stablecoins')).body.data).toHaveLength(1);
  });
});
