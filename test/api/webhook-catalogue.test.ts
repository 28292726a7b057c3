import request from 'supertest';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { Quote } from '../../src/contexts/payments/entities';
import { strandedQuotes } from '../../src/contexts/payments/services/stranded-quotes';
import { CARD_TIMING } from '../../src/contexts/cards/services/card-timing';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { loadReferenceDocument } from '../support/reference-document';
import { ReferenceConformance } from '../support/reference-conformance';
import { connectedAgent } from '../support/agent-fixtures';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { BASE, Harness } from '../support/harness';
import { FILES, businessFields, individualFields, insertCustomer, ownerBody } from '../support/onboarding-fixtures';
import { scaCustomer } from '../support/sca/fixtures';
import type { ReceivedWebhook } from '../support/receiver';

// Every type of the reference's WebhookType, caused by its sandbox trigger (docs/webhooks.md, Webhooks: the
// catalogue) against the harness's real receiver: each arrives once for its subject, signed with
// its platform's key, its `data` valid against the reference's schema for that type.

let h: Harness;
const conformance = ReferenceConformance.load();
type Platform = Awaited<ReturnType<Harness['platform']>>;
type Api = Platform['api'];

/** What one type is expected on: the subject's id (`data.id`; the event's own id for TEST) and the platform's public key. */
interface Expectation {
  subject: string;
  publicKeyPem: string;
}
const expected = new Map<string, Expectation>();
/** The EUR account's fundingPaymentInstructions before and after the sandbox reissued them. */
const reissued: { before?: unknown; after?: unknown } = {};
const triggerErrors: string[] = [];

const reference = loadReferenceDocument() as unknown as {
  components: { schemas: Record<string, { enum?: string[]; allOf?: { properties?: Record<string, { $ref?: string; enum?: string[] }> }[] }> };
};
const CATALOGUE: string[] = reference.components.schemas.WebhookType!.enum!;

/** The reference's schema of `data` for each type: the webhook schema whose type enum names it (READY_FOR_VERIFICATION is in WebhookType only: a Verification). */
function dataSchemaOf(type: string): string | null {
  if (type === 'TEST') return null;
  if (type === 'VERIFICATION.READY_FOR_VERIFICATION') return 'Verification';
  for (const schema of Object.values(reference.components.schemas)) {
    const own = schema.allOf?.[1]?.properties;
    if (own?.type?.enum?.includes(type) && own.data?.$ref) return own.data.$ref.split('/').pop()!;
  }
  throw new Error(`no webhook schema names ${type}`);
}

const subjectOf = (hook: ReceivedWebhook) => (hook.body.type === 'TEST' ? hook.body.id : String(hook.body.data?.id ?? hook.body.data?.code));
const hooksOf = (type: string, subject: string) => h.receiver.received.filter((w) => w.body.type === type && subjectOf(w) === subject);

const publicKeyOf = async (api: Api) => (await api.get('/webhooks/public-key').expect(200)).body.publicKeyPem as string;

async function customerWithAccounts(api: Api, fullName = 'Jane Doe') {
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName });
  expect(created.status).toBe(201);
  const customerId = created.body.id as string;
  const accounts = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data as {
    id: string;
    balance: { currency: { code: string } };
  }[];
  const of = (code: string) => accounts.find((a) => a.balance.currency.code === code)?.id as string;
  return { customerId, umaAddress: created.body.umaAddress as string, usd: of('USD'), eur: of('EUR') };
}

async function bankAccount(api: Api, customerId: string, ibanSuffix: string) {
  const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', `370400440532013${ibanSuffix}`)) });
  expect(bank.status).toBe(201);
  return bank.body.id as string;
}

async function quote(api: Api, source: string, destination: string, amount = 10_000) {
  const res = await api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; transactionId: string };
}

async function payout(api: Api, source: string, destination: string) {
  const q = await quote(api, source, destination);
  expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
  return q.transactionId;
}

function upload(p: Platform, holder: string, documentType: string) {
  return request(h.app)
    .post(`${BASE}/documents`)
    .set('Authorization', p.auth)
    .field('documentType', documentType)
    .field('country', 'US')
    .field('documentHolder', holder)
    .attach('file', FILES.pdf, { filename: `${documentType.toLowerCase()}.pdf`, contentType: 'application/pdf' })
    .expect(201);
}

/** The triggers, grouped by the platform they run in; each names the subject of the types it causes. */
const TRIGGERS: Record<string, () => Promise<void>> = {
  async test() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const res = await p.api.post('/webhooks/test').expect(200);
    expected.set('TEST', { subject: res.body.id, publicKeyPem: key });
  },

  async payouts() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const on = (type: string, subject: string) => expected.set(type, { subject, publicKeyPem: key });
    const c = await customerWithAccounts(p.api);
    on('CUSTOMER.KYC_APPROVED', c.customerId);
    on('INTERNAL_ACCOUNT.STATUS_UPDATED', c.usd);
    expect((await p.api.post(`/sandbox/internal-accounts/${c.usd}/fund`, { amount: 1_000_000 })).status).toBe(200);
    // A balance that moves once: the EUR account, funded and never paid from.
    expect((await p.api.post(`/sandbox/internal-accounts/${c.eur}/fund`, { amount: 1_000 })).status).toBe(200);
    on('INTERNAL_ACCOUNT.BALANCE_UPDATED', c.eur);
    // The EUR account's coordinates reissued: the old ones withdrawn, new ones served.
    const accountOf = async (id: string) =>
      ((await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.customerId)}`)).body.data as { id: string }[]).find(
        (a) => a.id === id,
      )!;
    reissued.before = ((await accountOf(c.eur)) as unknown as { fundingPaymentInstructions: unknown }).fundingPaymentInstructions;
    const reissue = await p.api.post(`/sandbox/internal-accounts/${c.eur}/funding-instructions/reissue`, undefined, { 'Idempotency-Key': 'reissue-eur' });
    expect(reissue.status).toBe(200);
    // Retried with its key: the same answer, reissued (and announced) once.
    const retried = await p.api.post(`/sandbox/internal-accounts/${c.eur}/funding-instructions/reissue`, undefined, { 'Idempotency-Key': 'reissue-eur' });
    expect([retried.status, retried.text]).toEqual([200, reissue.text]);
    reissued.after = reissue.body.fundingPaymentInstructions;
    expect(await accountOf(c.eur)).toEqual(reissue.body);
    on('INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED', c.eur);
    // A plain payout: PENDING and PROCESSING once executed, then COMPLETED.
    const paid = await payout(p.api, c.usd, await bankAccount(p.api, c.customerId, '999'));
    on('OUTGOING_PAYMENT.PENDING', paid);
    on('OUTGOING_PAYMENT.PROCESSING', paid);
    on('OUTGOING_PAYMENT.COMPLETED', paid);
    // 002: the execution fails, the held funds are refunded.
    const failed = await payout(p.api, c.usd, await bankAccount(p.api, c.customerId, '002'));
    on('OUTGOING_PAYMENT.FAILED', failed);
    on('OUTGOING_PAYMENT.REFUND_PENDING', failed);
    on('OUTGOING_PAYMENT.REFUND_COMPLETED', failed);
    // 007: the payout and its refund both fail.
    on('OUTGOING_PAYMENT.REFUND_FAILED', await payout(p.api, c.usd, await bankAccount(p.api, c.customerId, '007')));
    // 104: the name check answers later; the account turns ACTIVE.
    on('EXTERNAL_ACCOUNT.STATUS_UPDATED', await bankAccount(p.api, c.customerId, '104'));
    // A quote nobody executes expires (its expiry brought forward, as the minute sweep finds it).
    const idle = await quote(p.api, c.usd, await bankAccount(p.api, c.customerId, '998'));
    await h.temporal.workflow.getHandle(idle.transactionId).terminate('test: expire now');
    await h.orm.em.fork().nativeUpdate(Quote, { id: idle.id }, { expiresAt: new Date(Date.now() - 120_000) });
    await startStrandedOf(h.orm, h.temporal, strandedQuotes, { taskQueue: h.taskQueue, platformId: p.platform.id });
    on('OUTGOING_PAYMENT.EXPIRED', idle.transactionId);
  },

  async incoming() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const on = (type: string, subject: string) => expected.set(type, { subject, publicKeyPem: key });
    const c = await customerWithAccounts(p.api);
    on('CUSTOMER.KYC_PENDING', (await customerWithAccounts(p.api, 'Pending 001')).customerId);
    on('CUSTOMER.KYC_REJECTED', (await customerWithAccounts(p.api, 'Rejected 002')).customerId);
    // A UMA payment: the approval call (answered 200), then COMPLETED.
    const received = await p.api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.example.com',
      receiverUmaAddress: c.umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 2_500,
    });
    expect(received.status).toBe(200);
    on('INCOMING_PAYMENT.PENDING', received.body.id);
    on('INCOMING_PAYMENT.COMPLETED', received.body.id);
    // Approved but not creditable (sender 006): FAILED and refunded to the sender; 007: the refund fails too.
    const sentBack = async (senderUmaAddress: string) => {
      const res = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress,
        receiverUmaAddress: c.umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_000,
      });
      expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
      return res.body.id as string;
    };
    const refunded = await sentBack('$refund006@sandbox.example.com');
    on('INCOMING_PAYMENT.REFUND_PENDING', refunded);
    on('INCOMING_PAYMENT.REFUND_COMPLETED', refunded);
    on('INCOMING_PAYMENT.REFUND_FAILED', await sentBack('$refund007@sandbox.example.com'));
    // A pull the bank refuses (002): FAILED at once.
    const bank = await p.api.post('/customers/external-accounts', { customerId: c.customerId, ...usdAccount('123456002') });
    expect(bank.status).toBe(201);
    await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: bank.body.id }, { bankValidation: 'PASSED' });
    const pulled = await p.api.post('/transfer-in', { source: { accountId: bank.body.id }, destination: { accountId: c.usd }, amount: 1_000 });
    expect(pulled.status).toBe(201);
    on('INCOMING_PAYMENT.FAILED', pulled.body.id);
  },

  async sca() {
    const { client: _sca, customerId, ...p } = await scaCustomer(h, { loggedIn: true });
    const key = await publicKeyOf(p.api);
    const eur = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=EUR`)).body.data[0].id as string;
    expect((await p.api.post(`/sandbox/internal-accounts/${eur}/fund`, { amount: 100_000 })).status).toBe(200);
    const held = await payout(p.api, eur, await bankAccount(p.api, customerId, '999'));
    expected.set('OUTGOING_PAYMENT.PENDING_AUTHORIZATION', { subject: held, publicKeyPem: key });
  },

  async onboarding() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const on = (type: string, subject: string) => expected.set(type, { subject, publicKeyPem: key });
    const verify = async (customerId: string) => (await p.api.post('/verifications', { customerId }).expect(200)).body.id as string;
    // 999: approved at once; its accounts open.
    const approved = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-999'));
    on('VERIFICATION.APPROVED', await verify(approved.id));
    on('CUSTOMER.KYB_APPROVED', approved.id);
    // 002: rejected at once.
    const rejected = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-002'));
    on('VERIFICATION.REJECTED', await verify(rejected.id));
    on('CUSTOMER.KYB_REJECTED', rejected.id);
    // 003 without its owner and documents: RESOLVE_ERRORS.
    const incomplete = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    on('VERIFICATION.RESOLVE_ERRORS', await verify(incomplete.id));
    // 003 complete: IN_PROGRESS, the business PENDING (then APPROVED after the timer).
    const complete = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    await upload(p, complete.id, 'CERTIFICATE_OF_INCORPORATION');
    const owner = (await p.api.post('/beneficial-owners', ownerBody(complete.id)).expect(201)).body.id as string;
    await upload(p, owner, 'PASSPORT');
    on('VERIFICATION.IN_PROGRESS', await verify(complete.id));
    on('CUSTOMER.KYB_PENDING', complete.id);
    // 003 sent back for its owner and documents, then completed: READY_FOR_VERIFICATION before it is resubmitted.
    const fixed = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    const sentBack = await verify(fixed.id);
    await upload(p, fixed.id, 'CERTIFICATE_OF_INCORPORATION');
    const fixedOwner = (await p.api.post('/beneficial-owners', ownerBody(fixed.id)).expect(201)).body.id as string;
    await upload(p, fixedOwner, 'PASSPORT');
    on('VERIFICATION.READY_FOR_VERIFICATION', sentBack);
    // An individual PENDING at creation (001), complete: PENDING_MANUAL_REVIEW.
    const reviewed = await insertCustomer(h.orm, h.masterKey, p.platform.id, { ...individualFields('Review 001'), kycStatus: 'PENDING' });
    await upload(p, reviewed.id, 'PASSPORT');
    on('VERIFICATION.PENDING_MANUAL_REVIEW', await verify(reviewed.id));
  },

  async customersAndInvitations() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const on = (type: string, subject: string) => expected.set(type, { subject, publicKeyPem: key });
    const domain = `${p.platform.id.slice(9, 17)}.uma.example.com`;
    await p.api.patch('/config', { umaDomain: domain }).expect(200);
    const inviter = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'inviter', fullName: 'Ivy Inviter' }).expect(201);
    const invitation = (await p.api.post('/invitations', { inviterUma: inviter.body.umaAddress }).expect(201)).body.code as string;
    await p.api.post(`/invitations/${invitation}/claim`, { inviteeUma: '$bob@other.example.com' }).expect(200);
    // The invitation's data has no id: its code is the subject.
    on('INVITATION.CLAIMED', invitation);
    const csv = (...rows: string[]) =>
      Buffer.from(
        [
          'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,addressLine2,city,state,postalCode,country,email,businessLegalName,businessTaxId,businessIncorporatedOn',
          ...rows,
        ].join('\r\n') + '\r\n',
      );
    const bulk = async (bytes: Buffer) =>
      (await p.api.post('/customers/bulk/csv').attach('file', bytes, { filename: 'customers.csv', contentType: 'text/csv' }).expect(202)).body.jobId as string;
    on('BULK_UPLOAD.COMPLETED', await bulk(csv(`$ok@${domain},ok-1,INDIVIDUAL,Bulk Person,1990-01-15,1 Main St,,Austin,TX,78701,US,,,,`)));
    on('BULK_UPLOAD.FAILED', await bulk(csv(`$bad@${domain},bad-1,INDIVIDUAL,Bulk Person,yesterday,1 Main St,,Austin,TX,78701,US,,,,`)));
    // An agent whose policy asks the platform before executing.
    const c = await customerWithAccounts(p.api, 'Ada Agentowner');
    expect((await p.api.post(`/sandbox/internal-accounts/${c.usd}/fund`, { amount: 100_000 })).status).toBe(200);
    const bank = await bankAccount(p.api, c.customerId, '999');
    const { agent } = await connectedAgent(h, p.api, c.customerId, {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10, monthlyLimit: null },
    });
    const agentQuote = await agent.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: c.usd },
      destination: { destinationType: 'ACCOUNT', accountId: bank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect(agentQuote.status).toBe(201);
    const action = await agent.post(`/agents/me/quotes/${agentQuote.body.id}/execute`);
    expect(action.body.status).toBe('PENDING_APPROVAL');
    on('AGENT_ACTION.PENDING_APPROVAL', action.body.id);
  },

  async cards() {
    const p = await h.platform();
    const key = await publicKeyOf(p.api);
    const on = (type: string, subject: string) => expected.set(type, { subject, publicKeyPem: key });
    const c = await customerWithAccounts(p.api, 'Ada Lovelace');
    expect((await p.api.post(`/sandbox/internal-accounts/${c.usd}/fund`, { amount: 100_000 })).status).toBe(200);
    const usual = CARD_TIMING.pullConfirmationSeconds;
    CARD_TIMING.pullConfirmationSeconds = 2; // taken by the card's workflow when the card is issued
    let issued;
    try {
      issued = await p.api.post('/cards', { cardholderId: c.customerId, form: 'VIRTUAL', fundingSources: [c.usd] });
    } finally {
      CARD_TIMING.pullConfirmationSeconds = usual;
    }
    expect(issued.status).toBe(201);
    const card = issued.body.id as string;
    await eventually(
      () => p.api.get(`/cards/${card}`),
      (r) => r.body.state === 'ACTIVE',
    );
    on('CARD.STATE_CHANGE', card);
    // A second card, whose funding sources are replaced.
    const other = await customerWithAccounts(p.api, 'Bob Builder');
    const second = (await p.api.post('/cards', { cardholderId: other.customerId, form: 'VIRTUAL', fundingSources: [other.usd] }).expect(201)).body.id as string;
    await p.api.patch(`/cards/${second}`, { fundingSources: [other.usd] }).expect(200);
    on('CARD.FUNDING_SOURCE_CHANGE', second);
    const simulate = (what: string, body: unknown) => p.api.post(`/sandbox/cards/${card}/simulate/${what}`, body).expect(202);
    const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };
    const usd = { code: 'USD' };
    const authorized = (await simulate('authorization', { amount: 4_000, currency: usd, merchant })).body.cardTransactionId as string;
    await simulate('clearing', { cardTransactionId: authorized, amount: 1_500 });
    await simulate('clearing', { cardTransactionId: authorized, amount: 2_500 });
    on('CARD_TRANSACTION.AUTHORIZED', authorized);
    on('CARD_TRANSACTION.PARTIALLY_SETTLED', authorized);
    on('CARD_TRANSACTION.SETTLED', authorized);
    const returned = (await simulate('financial_authorization', { amount: 1_000, currency: usd, merchant })).body.cardTransactionId as string;
    await simulate('return', { cardTransactionId: returned, amount: 1_000 });
    on('CARD_TRANSACTION.REFUNDED', returned);
    // 006: the pull is confirmed FAILED although the money moved.
    const exception = (await simulate('authorization', { amount: 1_000, currency: usd, merchant: { ...merchant, descriptor: 'FAILED CONFIRM-006' } })).body
      .cardTransactionId as string;
    on('CARD_TRANSACTION.EXCEPTION', exception);
  },
};

beforeAll(async () => {
  h = await Harness.start();
  // A trigger that throws is reported by the types it left without a subject.
  await Promise.all(Object.entries(TRIGGERS).map(([name, trigger]) => trigger().catch((err: unknown) => triggerErrors.push(`${name}: ${String(err)}`))));
  // Everything caused is delivered within the slowest trigger's timer (the verification's ~10 s).
  await h.receiver.waitFor(() => [...expected].every(([type, { subject }]) => hooksOf(type, subject).length > 0), 60_000).catch(() => undefined);
}, 180_000);
afterAll(async () => {
  await h?.stop();
});

test('the catalogue is the reference’s 43 types', () => {
  expect(CATALOGUE).toHaveLength(43);
});

describe.each(CATALOGUE)('%s', (type) => {
  test('has a sandbox trigger, arrives once for its subject, signed, its data as the reference says', () => {
    const expectation = expected.get(type);
    expect(expectation ? type : `${type}: no trigger (${triggerErrors.join('; ') || 'none names it'})`).toBe(type);
    const hooks = hooksOf(type, expectation!.subject);
    expect(hooks.map((w) => w.body.type)).toEqual([type]);
    const [hook] = hooks as [ReceivedWebhook];
    expect(verifyWebhookSignature(expectation!.publicKeyPem, hook.rawBody, String(hook.headers['x-svc-signature']))).toBe(true);
    expect(conformance.schemaProblems('BaseWebhook', hook.body)).toEqual([]);
    const schema = dataSchemaOf(type);
    if (schema) expect(conformance.schemaProblems(schema, hook.body.data)).toEqual([]);
  });
});

test('REFUND_PENDING announces the refund initiated and not settled; REFUND_COMPLETED the same refund settled', () => {
  const { subject } = expected.get('OUTGOING_PAYMENT.REFUND_PENDING')!;
  const [pending] = hooksOf('OUTGOING_PAYMENT.REFUND_PENDING', subject);
  const [completed] = hooksOf('OUTGOING_PAYMENT.REFUND_COMPLETED', subject);
  const refund = completed!.body.data.refund as { reference: string; reason: string };
  expect(pending!.body.data).toMatchObject({ status: 'FAILED', refund: { status: 'PENDING', reference: refund.reference, reason: refund.reason } });
  expect(pending!.body.data.refund).not.toHaveProperty('settledAt');
  expect(completed!.body.data).toMatchObject({ refund: { status: 'COMPLETED', settledAt: expect.any(String) } });
});

test('FUNDING_INSTRUCTIONS_UPDATED carries the account with its new coordinates, as GET shows them', () => {
  const { subject } = expected.get('INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED')!;
  const [hook] = hooksOf('INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED', subject);
  expect(reissued.after).not.toEqual(reissued.before);
  expect(hook!.body.data.fundingPaymentInstructions).toEqual(reissued.after);
});
