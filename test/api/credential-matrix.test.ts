import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { registeredRoutes } from '../../src/api/route';
import { DEFAULT_ABUSE_LIMITS } from '../../src/config';
import { createToken, revokeToken } from '../../src/contexts/platforms/services/platforms';
import { issueToken } from '../../src/contexts/platforms/services/tokens';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Api, BASE, Harness } from '../support/harness';
import { ScaClient } from '../support/sca/sca-client';
import { businessFields, FILES, insertCustomer, ownerBody } from '../support/onboarding-fixtures';
import { defaultUmaDomain } from '../../src/contexts/platforms/domain/uma-domains';
import { sampleOf, type OpenApiDocument, type OperationObject } from '../support/openapi-sample';
import { createPendingDelegatedKey } from '../../src/contexts/cards/services/delegated-keys';
import { otpLogin } from '../support/wallet-client';
import { AgentAction } from '../../src/contexts/agents/entities';

// The tenant and credential matrix: every operation of the service's own OpenAPI document, read
// at run time (a new route is covered without touching this file), with every kind of wrong
// credential, and with a second platform's credentials on the first platform's resources.
// Rows: no credentials, malformed credentials, a revoked token (401); a production token on
// sandbox-only operations (403); a VIEW-only token on every operation that needs more (403);
// platform B on platform A's ids (404, and answered exactly as for
// an id that does not exist, never with A's data). Afterwards nothing of A or B has changed.
// Agents' operations (/agents/me) take an agent's bearer token instead: a platform's credentials
// there, and an agent's token on every platform operation, are 401; an agent whose policy lacks
// an operation's permission is 403; platform B's agent on A's ids is 404. The device-code
// redemption takes no credentials (the code is one) and is left out of the credential rows.

let h: Harness;
let app: ReturnType<typeof createApp>;
let doc: OpenApiDocument;
let operations: { method: string; path: string; op: OperationObject }[];

type Res = { status: number; text: string; headers: Record<string, string>; body: Record<string, unknown> };

/** One request of the matrix, before credentials: what the path, query and body hold. */
interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  json?: unknown;
  /** The text fields of a multipart upload (a PDF is attached as `file`, unless `file` says otherwise). */
  form?: Record<string, string>;
  file?: { bytes: Buffer; name: string; type: string };
  headers?: Record<string, string>;
}

function send(authorization: string | undefined, call: Call): Promise<Res> {
  let r = request(app)[call.method as 'get'](`${BASE}${call.path}`).query(call.query);
  if (authorization) r = r.set('Authorization', authorization);
  if (call.headers) r = r.set(call.headers);
  if (call.form) {
    for (const [name, value] of Object.entries(call.form)) r = r.field(name, value);
    const file = call.file ?? { bytes: FILES.pdf, name: 'matrix.pdf', type: 'application/pdf' };
    r = r.attach('file', file.bytes, { filename: file.name, contentType: file.type });
  } else if (call.json !== undefined) {
    r = r.send(call.json as object);
  }
  return r as unknown as Promise<Res>;
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** Platform A's world, made through the API: one of each resource a path can name. */
interface World {
  customerId: string;
  businessId: string;
  umaAddress: string;
  usdAccountId: string;
  externalAccountId: string;
  platformExternalAccountId: string;
  quoteId: string;
  transactionId: string;
  incomingTransactionId: string;
  ownerId: string;
  documentId: string;
  verificationId: string;
  cardId: string;
  cardTransactionId: string;
  bulkJobId: string;
  tokenId: string;
  invitationCode: string;
  stablecoinProviderAccountId: string;
  stablecoinId: string;
  stablecoinOperationId: string;
  delegatedKeyId: string;
  /** The customer's embedded wallet, its EMAIL_OTP credential and a session of it. */
  walletId: string;
  authCredentialId: string;
  authSessionId: string;
  /** A customer of an SCA jurisdiction (DE), logged in, with a passkey and a factor reset. */
  scaCustomerId: string;
  passkeyCredentialId: string;
  scaResetId: string;
  agentId: string;
  actionId: string;
  deviceCode: string;
  webhookEventId: string;
}

/** Request bodies A sent successfully, by `METHOD /path/{template}`: replayed by B on A's ids. */
const validBodies = new Map<string, Pick<Call, 'json' | 'form' | 'file'>>();

async function asA(
  auth: string,
  method: string,
  template: string,
  params: Record<string, string>,
  body: Pick<Call, 'json' | 'form' | 'file'> = {},
): Promise<Res> {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]!);
  // Every write carries an Idempotency-Key, as a careful client sends it (some operations require one).
  const res = await send(auth, { method, path, query: {}, ...(method === 'get' ? {} : { headers: { 'Idempotency-Key': randomUUID() } }), ...body });
  if (res.status >= 300) throw new Error(`fixture ${method.toUpperCase()} ${path}: ${res.status} ${res.text}`);
  if (body.json !== undefined || body.form) validBodies.set(`${method} ${template}`, body);
  return res;
}

async function buildWorld(auth: string, platformId: string): Promise<World> {
  const customer = (
    await asA(
      auth,
      'post',
      '/customers',
      {},
      { json: { customerType: 'INDIVIDUAL', platformCustomerId: 'matrix-a', fullName: 'Alice Matrixowner', email: 'alice.matrix@example.com' } },
    )
  ).body as { id: string; umaAddress: string };
  const customerId = customer.id;
  await asA(auth, 'patch', '/customers/{customerId}', { customerId }, { json: { customerType: 'INDIVIDUAL', fullName: 'Alice Matrixowner' } });
  const accounts = (await send(auth, { method: 'get', path: '/customers/internal-accounts', query: { customerId } })).body.data as {
    id: string;
    balance: { currency: { code: string } };
  }[];
  const usdAccountId = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const walletId = accounts.find((a) => a.balance.currency.code === 'USDB')!.id;
  const authCredentialId = ((await send(auth, { method: 'get', path: '/auth/credentials', query: { accountId: walletId } })).body.data as { id: string }[])[0]!
    .id;
  const authSessionId = (await otpLogin(A.api, authCredentialId)).session.id;
  await asA(auth, 'post', '/sandbox/internal-accounts/{accountId}/fund', { accountId: usdAccountId }, { json: { amount: 100_000 } });
  const incoming = (await send(auth, { method: 'get', path: '/transactions', query: {} })).body.data as { id: string; type: string }[];
  const incomingTransactionId = incoming.find((t) => t.type === 'INCOMING')!.id;
  const externalAccountId = (
    await asA(auth, 'post', '/customers/external-accounts', {}, { json: { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) } })
  ).body.id as string;
  const platformExternalAccountId = (
    await asA(auth, 'post', '/platform/external-accounts', {}, { json: { ...eurAccount(ibanOf('DE', '370400440532013998')), platformAccountId: 'matrix' } })
  ).body.id as string;
  const quote = (
    await asA(
      auth,
      'post',
      '/quotes',
      {},
      {
        json: {
          source: { sourceType: 'ACCOUNT', accountId: usdAccountId },
          destination: { destinationType: 'ACCOUNT', accountId: externalAccountId },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 10_000,
          description: 'matrix',
        },
      },
    )
  ).body as { id: string; transactionId: string };
  await asA(auth, 'post', '/quotes/{quoteId}/execute', { quoteId: quote.id });
  await asA(
    auth,
    'post',
    '/sandbox/uma/receive',
    {},
    {
      json: {
        senderUmaAddress: '$sender@sandbox.example.com',
        receiverUmaAddress: customer.umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
      },
    },
  );

  const business = await insertCustomer(h.orm, h.masterKey, platformId, businessFields('REG-003'));
  const ownerId = (await asA(auth, 'post', '/beneficial-owners', {}, { json: ownerBody(business.id) })).body.id as string;
  await asA(auth, 'patch', '/beneficial-owners/{beneficialOwnerId}', { beneficialOwnerId: ownerId }, { json: { ownershipPercentage: 60 } });
  const documentId = (await asA(auth, 'post', '/documents', {}, { form: { documentType: 'PASSPORT', country: 'US', documentHolder: customerId } })).body
    .id as string;
  await asA(auth, 'put', '/documents/{documentId}', { documentId }, { form: { documentType: 'PASSPORT', country: 'US' } });
  // Without the business's documents the verification stays RESOLVE_ERRORS: no timer changes it meanwhile.
  const verificationId = (await asA(auth, 'post', '/verifications', {}, { json: { customerId: business.id } })).body.id as string;
  await asA(auth, 'post', '/customers/{customerId}/kyc-link', { customerId: business.id }, { json: {} });

  // A card, issued (its issuer timer passed) with an open authorization: its expiry is days away.
  const cardId = (
    await asA(
      auth,
      'post',
      '/cards',
      {},
      { json: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [usdAccountId], platformCardId: 'matrix-card' } },
    )
  ).body.id as string;
  await eventually(
    () => send(auth, { method: 'get', path: `/cards/${cardId}`, query: {} }),
    (r) => r.body.state === 'ACTIVE',
  );
  const cardTransactionId = (
    await asA(
      auth,
      'post',
      '/sandbox/cards/{cardId}/simulate/authorization',
      { cardId },
      { json: { amount: 1_000, currency: { code: 'USD' }, merchant: { descriptor: 'MATRIX SHOP' } } },
    )
  ).body.cardTransactionId as string;

  // A bulk import of one customer, finished.
  // On the platform's (default) domain, where its customers' addresses must be.
  const csv = `umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\nmatrix.bulk@${defaultUmaDomain(platformId)},matrix-bulk,INDIVIDUAL,Bulk Matrixowner,1980-01-01,1 Main St,Austin,TX,78701,US\n`;
  const bulkJobId = (await asA(auth, 'post', '/customers/bulk/csv', {}, { form: {}, file: { bytes: Buffer.from(csv), name: 'matrix.csv', type: 'text/csv' } }))
    .body.jobId as string;
  await eventually(
    () => send(auth, { method: 'get', path: `/customers/bulk/jobs/${bulkJobId}`, query: {} }),
    (r) => r.body.status === 'COMPLETED',
  );
  // A second API token, and an invitation (which needs the platform's UMA domain) left PENDING without expiry.
  const tokenId = (await asA(auth, 'post', '/tokens', {}, { json: { name: 'matrix-token', permissions: ['VIEW'] } })).body.id as string;
  await asA(auth, 'patch', '/config', {}, { json: { umaDomain: 'matrix.uma.example.com' } });
  const invitationCode = (await asA(auth, 'post', '/invitations', {}, { json: { inviterUma: customer.umaAddress, firstName: 'Matrix', amountToSend: 100 } }))
    .body.code as string;

  // A stablecoin issuer: a provider link, a PROVISIONED coin, and a wire-funded mint waiting (an hour) for its wire.
  const stablecoinProviderAccountId = (
    await asA(
      auth,
      'post',
      '/stablecoin-provider-accounts',
      {},
      { json: { provider: 'BRALE', apiClientId: 'matrix-client', apiClientSecret: 'sk_matrix_secret' } },
    )
  ).body.id as string;
  const stablecoinId = (
    await asA(
      auth,
      'post',
      '/stablecoins',
      {},
      { json: { providerTokenIdentifier: 'MATRIX', networkTokenIdentifier: 'btkn1matrix', network: 'SPARK', stablecoinProviderAccountId } },
    )
  ).body.id as string;
  await eventually(
    () => send(auth, { method: 'get', path: `/stablecoins/${stablecoinId}`, query: {} }),
    (r) => r.body.issuanceStatus === 'PROVISIONED',
  );
  const sparkWalletId = (
    await asA(
      auth,
      'post',
      '/platform/external-accounts',
      {},
      {
        json: {
          currency: 'USDB',
          accountInfo: { accountType: 'SPARK_WALLET', address: 'sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4' },
        },
      },
    )
  ).body.id as string;
  const stablecoinOperationId = (
    await asA(
      auth,
      'post',
      '/stablecoins/{stablecoinId}/mints',
      { stablecoinId },
      { json: { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: sparkWalletId } } },
    )
  ).body.id as string;

  // Strong Customer Authentication: a customer of an SCA jurisdiction, logged in, with a passkey and a reset.
  const scaCustomer = await insertCustomer(h.orm, h.masterKey, platformId, {
    regionCode: 'DE',
    kycStatus: 'APPROVED',
    phoneNumber: '+4915112345678',
    contactVerification: { phone: 'VERIFIED' },
  });
  const sca = new ScaClient(new Api(app, auth), scaCustomer.id);
  await sca.loginWithSms();
  const passkeyCredentialId = (await sca.enrolPasskey()).credentialId;
  const scaResetId = (await asA(auth, 'post', `/sca/factors/reset?customerId=${encodeURIComponent(scaCustomer.id)}`, {}, { json: { factor: 'PASSKEY' } })).body
    .resetId as string;
  // A card signing key (stored directly: its three-leg creation needs a wallet session).
  const delegatedKeyId = (
    await createPendingDelegatedKey(h.orm.em.fork(), h.masterKey, platformId, { cardId, internalAccountId: usdAccountId, nickname: 'matrix-key' })
  ).id;
  // An agent of the customer, installed (its code redeemed: A's agent token), with one action done.
  const agent = (await asA(auth, 'post', '/agents', {}, { json: { name: 'matrix-agent', customerId, policy: agentPolicy(AGENT_PERMISSIONS) } })).body as {
    agent: { id: string };
    deviceCode: { code: string };
  };
  agentAuths.A = await redeemed(agent.deviceCode.code);
  await asA(auth, 'patch', '/agents/{agentId}', { agentId: agent.agent.id }, { json: { name: 'matrix-agent' } });
  await asA(auth, 'patch', '/agents/{agentId}/policy', { agentId: agent.agent.id }, { json: { defaultExecutionMode: 'AUTO' } });
  const actionId = `AgentAction:${randomUUID()}`;
  const em = h.orm.em.fork();
  const now = new Date();
  em.create(AgentAction, {
    id: actionId,
    platformId,
    agentId: agent.agent.id,
    customerId,
    type: 'TRANSFER_OUT',
    status: 'APPROVED',
    approvalRequired: false,
    transferDetails: { amount: '100', currency: 'USD', sourceAccountId: usdAccountId, destinationAccountId: externalAccountId },
    spendAmount: 100n,
    spendCurrency: 'USD',
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  // An agent of the same customer whose policy grants nothing.
  const powerless = (await asA(auth, 'post', '/agents', {}, { json: { name: 'matrix-powerless', customerId, policy: agentPolicy([]) } })).body as {
    deviceCode: { code: string };
  };
  agentAuths.powerless = await redeemed(powerless.deviceCode.code);

  // Everything A started has finished, so that the snapshot below holds still.
  const settled = (id: string) =>
    eventually(
      () => send(auth, { method: 'get', path: `/transactions/${id}`, query: {} }),
      (r) => r.body.status === 'COMPLETED',
    );
  for (const id of [incomingTransactionId, quote.transactionId]) expect((await settled(id)).body.status).toBe('COMPLETED');
  const [webhookEvent] = await h.orm.em
    .getConnection()
    .execute<{ id: string }[]>('select id from webhook_events where platform_id = ? order by created_at limit 1', [platformId]);
  return {
    webhookEventId: webhookEvent!.id,
    customerId,
    businessId: business.id,
    umaAddress: customer.umaAddress,
    usdAccountId,
    externalAccountId,
    platformExternalAccountId,
    quoteId: quote.id,
    transactionId: quote.transactionId,
    incomingTransactionId,
    ownerId,
    documentId,
    verificationId,
    cardId,
    cardTransactionId,
    bulkJobId,
    tokenId,
    invitationCode,
    stablecoinProviderAccountId,
    stablecoinId,
    stablecoinOperationId,
    delegatedKeyId,
    walletId,
    authCredentialId,
    authSessionId,
    scaCustomerId: scaCustomer.id,
    passkeyCredentialId,
    scaResetId,
    agentId: agent.agent.id,
    actionId,
    deviceCode: agent.deviceCode.code,
  };
}

const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const agentPolicy = (permissions: string[]) => ({
  permissions,
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 100_000 },
});
/** Bearer credentials of agents: A's (every permission), A's without permissions, and B's (every permission, on B's own customer). */
const agentAuths: { A?: string; powerless?: string; B?: string } = {};

async function redeemed(code: string): Promise<string> {
  const res = await request(app).post(`${BASE}/agents/device-codes/${code}/redeem`);
  if (res.status !== 200) throw new Error(`fixture redeem: ${res.status} ${res.text}`);
  return `Bearer ${res.body.accessToken}`;
}

const isAgentOperation = (op: OperationObject) => !!op.security?.some((s) => 'AgentAuth' in s);
/** The device-code redemption: no credentials, the code is one. */
const takesNoCredentials = (op: OperationObject) => op.security?.length === 0;

/**
 * A's value for a path, query or body field, by its name; for `accountId`, the kind of account
 * the field takes: external in an external-account path, as a payout's destination and as a
 * pull's source, internal otherwise.
 */
function valueOf(w: World, name: string, path: string, at = name): string | undefined {
  switch (name) {
    case 'customerId':
      return path.startsWith('/sca/') ? w.scaCustomerId : w.customerId;
    case 'documentHolder':
      return w.customerId;
    case 'credentialId':
      return w.passkeyCredentialId;
    case 'resetId':
      return w.scaResetId;
    case 'externalAccountId':
      return path.startsWith('/platform/') ? w.platformExternalAccountId : w.externalAccountId;
    case 'accountId':
      if (path.startsWith('/auth/')) return w.walletId;
      return path.includes('/external-account') || at === (path === '/transfer-in' ? 'source.accountId' : 'destination.accountId')
        ? w.externalAccountId
        : w.usdAccountId;
    case 'internalAccountId':
      return w.usdAccountId;
    case 'quoteId':
      return w.quoteId;
    case 'transactionId':
      return w.transactionId;
    case 'eventId':
      return w.webhookEventId;
    case 'beneficialOwnerId':
      return w.ownerId;
    case 'documentId':
      return w.documentId;
    case 'verificationId':
      return w.verificationId;
    case 'cardId':
      return w.cardId;
    case 'cardTransactionId':
      return w.cardTransactionId;
    case 'cardholderId':
      return w.customerId;
    case 'jobId':
      return w.bulkJobId;
    case 'tokenId':
      return w.tokenId;
    case 'invitationCode':
      return w.invitationCode;
    case 'stablecoinProviderAccountId':
      return w.stablecoinProviderAccountId;
    case 'stablecoinId':
      return w.stablecoinId;
    case 'stablecoinOperationId':
      return w.stablecoinOperationId;
    case 'id':
      if (path.startsWith('/auth/delegated-keys/')) return w.delegatedKeyId;
      if (path.startsWith('/internal-accounts/')) return w.walletId;
      return path.startsWith('/auth/credentials/') ? w.authCredentialId : path.startsWith('/auth/sessions/') ? w.authSessionId : undefined;
    case 'agentId':
      return w.agentId;
    case 'actionId':
      return w.actionId;
    case 'code':
      // The device code in its path only: other fields named code (a currency's, a contact code) are not ids.
      return path.includes('/device-codes/{code}') ? w.deviceCode : undefined;
    case 'inviterUma':
    case 'receiverUmaAddress':
    case 'umaAddress':
      return w.umaAddress;
    default:
      return undefined;
  }
}

/** The call of an operation on A's resources: A's ids wherever a parameter or body field names one. */
function callOn(w: World, method: string, path: string, op: OperationObject): Call {
  const missing: string[] = [];
  const params = op.parameters ?? [];
  const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => valueOf(w, name, path) ?? (missing.push(`path parameter ${name}`), 'missing'));
  const query: Record<string, string> = {};
  for (const p of params.filter((p) => p.in === 'query')) {
    const value = valueOf(w, p.name, path);
    if (value !== undefined) query[p.name] = value;
    else if (p.required) missing.push(`query parameter ${p.name}`);
  }
  if (missing.length > 0) throw new Error(`${method.toUpperCase()} ${path}: no value of platform A for ${missing.join(', ')}; add it to valueOf`);
  const needsKey = params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required);
  const call: Call = { method, path: concrete, query, ...(needsKey ? { headers: { 'Idempotency-Key': randomUUID() } } : {}) };
  const recorded = validBodies.get(`${method} ${path}`);
  if (recorded) return { ...call, ...recorded };
  const content = op.requestBody?.content;
  if (!content) return call;
  const [type, { schema }] = Object.entries(content)[0]!;
  const body = sampleOf(doc, schema, (name, at) => valueOf(w, name, path, at)) as Record<string, unknown>;
  if (type !== 'multipart/form-data') return { ...call, json: body };
  const { file: _file, ...fields } = body;
  return { ...call, form: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])) };
}

/** The same call with every one of A's ids swapped for an id of the same kind that does not exist. */
function withUnknownIds(call: Call, ids: string[]): Call {
  let text = JSON.stringify(call);
  for (const id of ids) {
    const unknown = id.startsWith('$')
      ? `$nobody${randomUUID().slice(0, 8)}${id.slice(id.indexOf('@'))}`
      : id.includes(':')
        ? `${id.slice(0, id.indexOf(':'))}:${randomUUID()}`
        : // An invitation code: as many random hex digits.
          randomUUID().replace(/-/g, '').slice(0, id.length);
    text = text.split(id).join(unknown);
  }
  const unknown = JSON.parse(text) as Call;
  // A new request, not a repeat: the same key with another body is IDEMPOTENCY_KEY_REUSED.
  if (unknown.headers?.['Idempotency-Key']) unknown.headers['Idempotency-Key'] = randomUUID();
  return unknown;
}

const label = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Problems with a refusal: its status, and the §7 body (code, reason, message; status repeated) as JSON. */
function refusalProblems(res: Res, status: number, code: string): string[] {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`${res.status} instead of ${status} (${res.text.slice(0, 160)})`);
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) problems.push(`content type ${res.headers['content-type']}`);
  const b = res.body;
  if (b.code !== code || b.status !== res.status || typeof b.reason !== 'string' || typeof b.message !== 'string')
    problems.push(`not the §7 body of ${code}: ${res.text.slice(0, 160)}`);
  return problems;
}

/**
 * What a refused request must not change, for A and B: every table with a platform_id but the
 * idempotency store (its row count, and its latest updated_at where it has one), the document files, and the ledger.
 */
async function snapshot(platformIds: string[]) {
  const conn = h.orm.em.getConnection();
  const tables = await conn.execute<{ table_name: string; updated: boolean }[]>(
    `select c.table_name, exists (select 1 from information_schema.columns u where u.table_schema = c.table_schema and u.table_name = c.table_name and u.column_name = 'updated_at') as updated
       from information_schema.columns c where c.table_schema = current_schema() and c.column_name = 'platform_id'
         -- The answers kept for the refused requests' own Idempotency-Keys: a record of the request, not a change to A or B.
         and c.table_name <> 'idempotency_keys'
       order by c.table_name`,
  );
  const rows: Record<string, unknown> = {};
  for (const { table_name, updated } of tables) {
    const [row] = await conn.execute(`select count(*) as n${updated ? ', max(updated_at) as updated' : ''} from "${table_name}" where platform_id in (?)`, [
      platformIds,
    ]);
    rows[table_name] = row;
  }
  const [files] = await conn.execute(`select count(*) as n from document_files f join documents d on d.id = f.document_id where d.platform_id in (?)`, [
    platformIds,
  ]);
  const [ledger] = await conn.execute(
    `select count(p.*) as postings, coalesce(sum(abs(p.amount)), 0) as moved,
            (select coalesce(sum(balance), 0) || '/' || coalesce(sum(held), 0) from ledger_accounts where platform_id in (?)) as balances
       from postings p join ledger_accounts a on a.id = p.account_id where a.platform_id in (?)`,
    [platformIds, platformIds],
  );
  return { rows, files, ledger };
}

let A: Awaited<ReturnType<Harness['platform']>>;
let B: Awaited<ReturnType<Harness['platform']>>;
let world: World;
let aIds: string[];
let aData: string[];
let productionAuth: string;
let viewOnlyAuth: string;
let revokedAuth: string;
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  h = await Harness.start();
  // The rows below send hundreds of failed authentications from one address: the lockout
  // (abuse-protection.test.ts) would answer them 429 after its allowance.
  app = createApp({ ...h.deps, config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, authFailuresBeforeLockout: 1_000_000 } } });
  doc = (await request(app).get(`${BASE}/openapi.json`)).body as OpenApiDocument;
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));
  A = await h.platform({ embeddedWalletsSupported: true });
  B = await h.platform();
  const em = h.orm.em.fork();
  const production = await createToken(em, h.masterKey, A.platform.id, 'PRODUCTION');
  productionAuth = basic(production.tokenId, production.clientSecret);
  const viewer = await issueToken(
    em,
    h.masterKey,
    { platformId: A.platform.id, environment: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] },
    { name: 'matrix-viewer', permissions: ['VIEW'] },
  );
  viewOnlyAuth = basic(viewer.id, viewer.clientSecret);
  const revoked = await createToken(em, h.masterKey, A.platform.id, 'SANDBOX');
  revokedAuth = basic(revoked.tokenId, revoked.clientSecret);
  // Used once, then revoked: the revocation must hold at once.
  expect((await send(revokedAuth, { method: 'get', path: '/config', query: {} })).status).toBe(200);
  expect(await revokeToken(em, A.platform.id, revoked.tokenId)).toBe(true);

  world = await buildWorld(A.auth, A.platform.id);
  const bCustomer = await send(B.auth, {
    method: 'post',
    path: '/customers',
    query: {},
    json: { customerType: 'INDIVIDUAL', platformCustomerId: 'matrix-b', fullName: 'Bob Matrixother' },
  });
  const bAgent = await send(B.auth, {
    method: 'post',
    path: '/agents',
    query: {},
    json: { name: 'b-agent', customerId: bCustomer.body.id, policy: agentPolicy(AGENT_PERMISSIONS) },
  });
  agentAuths.B = await redeemed((bAgent.body.deviceCode as { code: string }).code);
  aIds = Object.values(world);
  aData = [
    ...aIds,
    'Alice Matrixowner',
    'alice.matrix@example.com',
    'matrix-a',
    'matrix-bulk',
    'Bulk Matrixowner',
    'Acme Inc',
    ibanOf('DE', '370400440532013999'),
  ];
  // Taken once two readings a second apart agree (webhook deliveries of the fixtures may still be landing).
  const reading = () => snapshot([A.platform.id, B.platform.id]);
  const [, settled] = await eventually(
    async () => [await reading(), await new Promise((r) => setTimeout(r, 1_000)).then(reading)],
    ([first, second]) => JSON.stringify(first) === JSON.stringify(second),
  );
  before = settled!;
}, 120_000);

afterAll(async () => {
  await h.stop();
});

describe('the matrix covers every operation', () => {
  test("the service's OpenAPI document lists every mounted route, each once", () => {
    const documented = operations.map(({ method, path }) => label(method, path)).sort();
    const mounted = registeredRoutes.map((r) => label(r.method, r.path.replace(/:(\w+)/g, '{$1}'))).sort();
    expect(documented).toEqual(mounted);
    expect(new Set(documented).size).toBe(operations.length);
  });
});

describe('credentials that are not valid: 401 UNAUTHORIZED with the §7 body on every operation', () => {
  const rows: [string, () => string | undefined][] = [
    ['no credentials', () => undefined],
    ['bad base64', () => 'Basic %%%not-base64%%%'],
    ['missing colon', () => `Basic ${Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64')}`],
    ['wrong scheme (a valid pair as a Bearer token)', () => A.auth.replace(/^Basic/, 'Bearer')],
    ['a revoked token (verified by this process before it was revoked)', () => revokedAuth],
  ];

  test.each(rows)(
    '%s',
    async (_row, authorization) => {
      const problems: string[] = [];
      let covered = 0;
      for (const { method, path, op } of operations.filter(({ op }) => !takesNoCredentials(op))) {
        const res = await send(authorization(), callOn(world, method, path, op));
        problems.push(...refusalProblems(res, 401, 'UNAUTHORIZED').map((p) => `${label(method, path)}: ${p}`));
        covered++;
      }
      expect(problems).toEqual([]);
      expect(covered).toBe(operations.length - 1);
      // One request per operation: on a loaded machine the row that reads the token takes a minute.
    },
    180_000,
  );
});

describe('a production token on sandbox-only operations', () => {
  test("403 FORBIDDEN with the §7 body, on A's own resources", async () => {
    const sandboxOnly = operations.filter(({ op }) => op['x-sandbox-only']);
    expect(sandboxOnly.length).toBeGreaterThan(0);
    // Every operation under /sandbox is one.
    expect(operations.filter(({ path }) => path.startsWith('/sandbox/')).map(({ method, path }) => label(method, path))).toEqual(
      sandboxOnly.map(({ method, path }) => label(method, path)),
    );
    const problems: string[] = [];
    for (const { method, path, op } of sandboxOnly) {
      const res = await send(productionAuth, callOn(world, method, path, op));
      problems.push(...refusalProblems(res, 403, 'FORBIDDEN').map((p) => `${label(method, path)}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});

describe('a VIEW-only token on operations that need TRANSACT or MANAGE', () => {
  test("403 FORBIDDEN with the §7 body, on A's own resources, before anything is judged", async () => {
    const writes = operations.filter(({ op }) => op['x-permission'] && op['x-permission'] !== 'VIEW');
    expect(writes.length).toBeGreaterThan(operations.length / 3);
    const problems: string[] = [];
    for (const { method, path, op } of writes) {
      const res = await send(viewOnlyAuth, callOn(world, method, path, op));
      problems.push(...refusalProblems(res, 403, 'FORBIDDEN').map((p) => `${label(method, path)}: ${p}`));
    }
    expect(problems).toEqual([]);
    // Reads are the token's to make.
    const reads = ['/config', '/tokens', '/tokens/{tokenId}', '/customers', '/transactions', '/invitations/{invitationCode}'];
    for (const { method, path, op } of operations.filter(({ method, path }) => method === 'get' && reads.includes(path))) {
      const res = await send(viewOnlyAuth, callOn(world, method, path, op));
      expect([label(method, path), res.status]).toEqual([label(method, path), 200]);
    }
  });
});

describe("platform B on platform A's resources", () => {
  test("never A's data; A's ids answered exactly as ids that do not exist: 404 by path, never a success", async () => {
    const problems: string[] = [];
    const notReaching: string[] = [];
    let covered = 0;
    for (const { method, path, op } of operations) {
      const call = callOn(world, method, path, op);
      const sent = JSON.stringify(call);
      const named = aIds.filter((id) => sent.includes(id));
      const name = label(method, path);
      // B's own business (creating its customers, its config): nothing of A's to reach.
      if (method !== 'get' && named.length === 0) {
        notReaching.push(name);
        covered++;
        continue;
      }
      // The device code is the redemption's credential: whoever holds it redeems it (agents.test.ts).
      if (takesNoCredentials(op)) {
        notReaching.push(name);
        covered++;
        continue;
      }
      // Agent operations: B's own agent, on A's ids.
      const auth = isAgentOperation(op) ? agentAuths.B! : B.auth;
      const res = await send(auth, call);
      const leaked = aData.filter((value) => !sent.includes(value) && res.text.includes(value));
      if (leaked.length > 0) problems.push(`${name}: shows A's ${leaked.join(', ')}`);
      if (named.length > 0) {
        const unknown = await send(auth, withUnknownIds(call, named));
        if (res.status !== unknown.status || res.body.code !== unknown.body.code) {
          problems.push(`${name}: A's ids answered ${res.status} ${String(res.body.code)}, unknown ids ${unknown.status} ${String(unknown.body.code)}`);
        }
        if (method !== 'get' && res.status < 300) problems.push(`${name}: ${res.status} on A's ids`);
      }
      if (path.includes('{')) problems.push(...refusalProblems(res, 404, String(res.body.code)).map((p) => `${name}: ${p}`));
      covered++;
    }
    expect(problems).toEqual([]);
    expect(covered).toBe(operations.length);
    // Sanity: most operations do reach A's resources; the rest are listed here when they change.
    expect(notReaching.length).toBeLessThan(operations.length / 4);
  });
});

describe('agents and platforms each with their own credentials', () => {
  test("an agent's valid token on every platform operation: 401", async () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations.filter(({ op }) => !isAgentOperation(op) && !takesNoCredentials(op))) {
      const res = await send(agentAuths.A, callOn(world, method, path, op));
      problems.push(...refusalProblems(res, 401, 'UNAUTHORIZED').map((p) => `${label(method, path)}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  test("the platform's valid credentials on every agent operation: 401", async () => {
    const agentOps = operations.filter(({ op }) => isAgentOperation(op));
    expect(agentOps.length).toBeGreaterThanOrEqual(11);
    const problems: string[] = [];
    for (const { method, path, op } of agentOps) {
      const res = await send(A.auth, callOn(world, method, path, op));
      problems.push(...refusalProblems(res, 401, 'UNAUTHORIZED').map((p) => `${label(method, path)}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  test("an agent whose policy lacks an operation's permission: 403 FORBIDDEN on A's own resources, before anything is judged", async () => {
    const guarded = operations.filter(({ op }) => op['x-agent-permission']);
    expect(guarded.length).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (const { method, path, op } of guarded) {
      const res = await send(agentAuths.powerless, callOn(world, method, path, op));
      problems.push(...refusalProblems(res, 403, 'FORBIDDEN').map((p) => `${label(method, path)}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});

describe('afterwards', () => {
  test('nothing of A or B changed: rows, their updates, document files, the ledger', async () => {
    expect(await snapshot([A.platform.id, B.platform.id])).toEqual(before);
  });
});

describe('unknown routes and methods answer JSON', () => {
  test.each([
    ['an unknown path under the base, with credentials', () => send(A.auth, { method: 'get', path: '/no-such-thing', query: {} }), 404, 'NOT_FOUND'],
    [
      'an unknown path, with a body that is not JSON',
      () => request(app).post(`${BASE}/no-such-thing`).set('Authorization', A.auth).set('Content-Type', 'application/json').send('{not json'),
      404,
      'NOT_FOUND',
    ],
    ['an unknown path without credentials', () => send(undefined, { method: 'get', path: '/no-such-thing', query: {} }), 401, 'UNAUTHORIZED'],
    ['outside the versioned base', () => request(app).get('/nothing-here'), 404, 'NOT_FOUND'],
    ['a known path with a method it does not take', () => send(A.auth, { method: 'put', path: '/customers', query: {}, json: {} }), 405, 'METHOD_NOT_ALLOWED'],
  ] as [string, () => Promise<unknown>, number, string][])('%s', async (_name, call, status, code) => {
    expect(refusalProblems((await call()) as Res, status, code)).toEqual([]);
  });
});
