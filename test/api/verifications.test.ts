import request from 'supertest';
import { Customer, Document, KycLink, Verification } from '../../src/contexts/customers/entities';
import { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
import { openInternalAccount } from '../../src/contexts/ledger/services/internal-accounts';
import { verificationIdFor } from '../../src/contexts/customers/services/verifications';
import { eventually } from '../support/eventually';
import { BASE, Harness } from '../support/harness';
import { businessFields, FILES, individualFields, insertCustomer, ownerBody, US_ADDRESS } from '../support/onboarding-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;

function upload(p: Platform, holder: string, documentType: string) {
  return request(h.app)
    .post(`${BASE}/documents`)
    .set('Authorization', p.auth)
    .field('documentType', documentType)
    .field('country', 'US')
    .field('documentHolder', holder)
    .attach('file', FILES.pdf, { filename: `${documentType.toLowerCase()}.pdf`, contentType: 'application/pdf' });
}

const hooksFor = (id: string, type: string) => h.receiver.ofType(type).filter((x) => x.body.data.id === id);
const customerRow = (id: string) => h.orm.em.fork().findOneOrFail(Customer, { id });
const accountsOf = (customerId: string) => h.orm.em.fork().find(InternalAccount, { customerId });

describe('POST /verifications: regulated platform, business', () => {
  test('003: itemised RESOLVE_ERRORS, fixed, IN_PROGRESS, then APPROVED after the timer with accounts, owners and webhooks', async () => {
    const p = await h.platform();
    const biz = await insertCustomer(
      h.orm,
      h.masterKey,
      p.platform.id,
      businessFields('REG-003', {
        address: { line1: '', country: 'US', postalCode: '1' },
        profile: { businessInfo: { legalName: 'Acme Inc', registrationNumber: 'REG-003' } },
      }),
    );

    const first = await p.api.post('/verifications', { customerId: biz.id });
    expect(first.status).toBe(200);
    const verificationId = first.body.id;
    expect(verificationId).toBe(verificationIdFor(biz.id));
    expect(first.body).toMatchObject({ customerId: biz.id, verificationStatus: 'RESOLVE_ERRORS' });
    expect(first.body.errors).toEqual([
      { resourceId: biz.id, type: 'MISSING_FIELD', field: 'customer.businessInfo.country', reason: 'Country of incorporation is required' },
      { resourceId: biz.id, type: 'MISSING_FIELD', field: 'customer.businessInfo.incorporatedOn', reason: 'Date of incorporation is required' },
      { resourceId: biz.id, type: 'MISSING_FIELD', field: 'customer.businessInfo.taxId', reason: 'Tax identification number is required' },
      { resourceId: biz.id, type: 'MISSING_FIELD', field: 'customer.address.line1', reason: 'Business address line 1 is required' },
      { resourceId: biz.id, type: 'MISSING_FIELD', field: 'customer.address.city', reason: 'Business address city is required' },
      {
        resourceId: biz.id,
        type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
        acceptedDocumentTypes: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT'],
        reason: expect.any(String),
      },
      { resourceId: biz.id, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' },
    ]);
    expect((await customerRow(biz.id)).kycStatus).toBe('UNVERIFIED');
    await h.receiver.waitFor(() => hooksFor(verificationId, 'VERIFICATION.RESOLVE_ERRORS').length === 1);

    // Fix part of it: the business data and an owner without an identity document.
    await h.orm.em.fork().nativeUpdate(Customer, { id: biz.id }, businessFields('REG-003'));
    const owner = (await p.api.post('/beneficial-owners', ownerBody(biz.id, {}, { lastName: 'Smith 001' }))).body;
    const minor = (await p.api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 10 }, { lastName: 'Minor' }))).body;
    const second = await p.api.post('/verifications', { customerId: biz.id });
    expect(second.body).toMatchObject({ id: verificationId, verificationStatus: 'RESOLVE_ERRORS' });
    expect(second.body.errors.map((e: { resourceId: string; type: string }) => [e.resourceId, e.type])).toEqual([
      [biz.id, 'MISSING_LEGAL_PRESENCE_DOCUMENT'],
      [owner.id, 'MISSING_IDENTITY_DOCUMENT'],
    ]);

    // Complete it: READY_FOR_VERIFICATION (announced once) with the last missing piece, before it is resubmitted.
    const incorporation = (await upload(p, biz.id, 'CERTIFICATE_OF_INCORPORATION')).body;
    expect((await p.api.get(`/verifications/${verificationId}`)).body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect((await upload(p, owner.id, 'PASSPORT')).status).toBe(201);
    expect((await p.api.get(`/verifications/${verificationId}`)).body).toMatchObject({ verificationStatus: 'READY_FOR_VERIFICATION', errors: [] });
    await h.receiver.waitFor(() => hooksFor(verificationId, 'VERIFICATION.READY_FOR_VERIFICATION').length === 1);
    expect(hooksFor(verificationId, 'VERIFICATION.READY_FOR_VERIFICATION')[0]!.body.data).toMatchObject({
      id: verificationId,
      verificationStatus: 'READY_FOR_VERIFICATION',
      errors: [],
    });
    // Resubmitted: IN_PROGRESS at once, the customer PENDING, the documents submitted.
    const third = await p.api.post('/verifications', { customerId: biz.id });
    expect(third.body).toMatchObject({ id: verificationId, verificationStatus: 'IN_PROGRESS', errors: [] });
    expect((await customerRow(biz.id)).kycStatus).toBe('PENDING');
    expect((await p.api.delete(`/documents/${incorporation.id}`)).status).toBe(409);
    const replace = await request(h.app)
      .put(`${BASE}/documents/${incorporation.id}`)
      .set('Authorization', p.auth)
      .field('documentType', 'CERTIFICATE_OF_INCORPORATION')
      .field('country', 'US')
      .attach('file', FILES.png, { filename: 'c.png', contentType: 'image/png' });
    expect(replace.status).toBe(409);
    expect(replace.body).toMatchObject({ code: 'CONFLICT', reason: expect.stringContaining('IN_PROGRESS') });
    expect(await h.orm.em.fork().count(Document, { customerId: biz.id, submittedAt: null })).toBe(0);
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYB_PENDING').some((x) => x.body.data.id === biz.id));
    await h.receiver.waitFor(() => hooksFor(verificationId, 'VERIFICATION.IN_PROGRESS').length === 1);

    // A repeat while under review changes nothing.
    expect((await p.api.post('/verifications', { customerId: biz.id })).body).toMatchObject({ verificationStatus: 'IN_PROGRESS' });

    // The workflow's timer resolves it.
    const resolved = await eventually(
      async () => (await p.api.get(`/verifications/${verificationId}`)).body,
      (v) => v.verificationStatus === 'APPROVED',
      30_000,
    );
    expect(resolved).toMatchObject({ id: verificationId, customerId: biz.id, errors: [] });
    expect((await customerRow(biz.id)).kycStatus).toBe('APPROVED');
    expect((await accountsOf(biz.id)).map((a) => a.currency).sort()).toEqual(['USD']);
    expect((await p.api.get(`/beneficial-owners/${owner.id}`)).body.kycStatus).toBe('PENDING');
    expect((await p.api.get(`/beneficial-owners/${minor.id}`)).body.kycStatus).toBe('APPROVED');
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYB_APPROVED').some((x) => x.body.data.id === biz.id));
    await h.receiver.waitFor(() => hooksFor(verificationId, 'VERIFICATION.APPROVED').length === 1);
    expect(hooksFor(verificationId, 'VERIFICATION.APPROVED')[0]!.body.data).toMatchObject({ id: verificationId, verificationStatus: 'APPROVED', errors: [] });

    // Decided: no further submissions; still one verification.
    const after = await p.api.post('/verifications', { customerId: biz.id });
    expect(after.status).toBe(400);
    expect(after.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'customerId', constraint: expect.objectContaining({ rule: 'notDecided' }) })] },
    });
    expect(await h.orm.em.fork().count(Verification, { customerId: biz.id })).toBe(1);
    expect(h.receiver.ofType('CUSTOMER.KYB_PENDING').filter((x) => x.body.data.id === biz.id)).toHaveLength(1);
  });

  test('002: REJECTED at once, without a complete packet; owners resolved', async () => {
    const p = await h.platform();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-002'));
    const owner = (await p.api.post('/beneficial-owners', ownerBody(biz.id))).body;
    const res = await p.api.post('/verifications', { customerId: biz.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verificationStatus: 'REJECTED', errors: [] });
    expect((await customerRow(biz.id)).kycStatus).toBe('REJECTED');
    expect(await accountsOf(biz.id)).toEqual([]);
    expect((await p.api.get(`/beneficial-owners/${owner.id}`)).body.kycStatus).toBe('APPROVED');
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYB_REJECTED').some((x) => x.body.data.id === biz.id));
    await h.receiver.waitFor(() => hooksFor(res.body.id, 'VERIFICATION.REJECTED').length === 1);
    expect(hooksFor(res.body.id, 'VERIFICATION.REJECTED')[0]!.body.data).toMatchObject({ id: res.body.id, customerId: biz.id, verificationStatus: 'REJECTED' });
    expect((await p.api.post('/verifications', { customerId: biz.id })).status).toBe(400);
  });

  test('any other suffix: APPROVED at once, accounts provisioned', async () => {
    const p = await h.platform();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-777', { currencies: ['USD', 'EUR'] }));
    const res = await p.api.post('/verifications', { customerId: biz.id });
    expect(res.body).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
    const accounts = await accountsOf(biz.id);
    expect(accounts.map((a) => a.currency).sort()).toEqual(['EUR', 'USD']);
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYB_APPROVED').some((x) => x.body.data.id === biz.id));
    await h.receiver.waitFor(() => accounts.every((a) => h.receiver.ofType('INTERNAL_ACCOUNT.STATUS_UPDATED').some((x) => x.body.data.id === a.id)));
    await h.receiver.waitFor(() => hooksFor(res.body.id, 'VERIFICATION.APPROVED').length === 1);
  });

  test('001 complete: PENDING_MANUAL_REVIEW, then APPROVED after the timer', async () => {
    const p = await h.platform();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-001'));
    const owner = (await p.api.post('/beneficial-owners', ownerBody(biz.id))).body;
    await upload(p, biz.id, 'ARTICLES_OF_ASSOCIATION');
    await upload(p, owner.id, 'DRIVERS_LICENSE');
    const res = await p.api.post('/verifications', { customerId: biz.id });
    expect(res.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect((await customerRow(biz.id)).kycStatus).toBe('PENDING');
    await h.receiver.waitFor(() => hooksFor(res.body.id, 'VERIFICATION.PENDING_MANUAL_REVIEW').length === 1);
    expect(hooksFor(res.body.id, 'VERIFICATION.PENDING_MANUAL_REVIEW')[0]!.body.data).toMatchObject({
      id: res.body.id,
      verificationStatus: 'PENDING_MANUAL_REVIEW',
      errors: [],
    });

    const resolved = await eventually(
      async () => (await p.api.get(`/verifications/${res.body.id}`)).body,
      (v) => v.verificationStatus === 'APPROVED',
      30_000,
    );
    expect(resolved).toMatchObject({ id: res.body.id, customerId: biz.id, errors: [] });
    expect((await customerRow(biz.id)).kycStatus).toBe('APPROVED');
    const accounts = await accountsOf(biz.id);
    expect(accounts.map((a) => a.currency)).toEqual(['USD']);
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYB_APPROVED').some((x) => x.body.data.id === biz.id));
    // The accounts the timer's approval opened are announced.
    await h.receiver.waitFor(() =>
      h.receiver.ofType('INTERNAL_ACCOUNT.STATUS_UPDATED').some((x) => x.body.data.id === accounts[0]!.id && x.body.data.status === 'ACTIVE'),
    );
  });
});

describe('POST /verifications: regulated platform, individuals', () => {
  test('approved at creation: 400', async () => {
    const p = await h.platform();
    const created = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'ind-1', fullName: 'Ada Lovelace' });
    expect(created.body.kycStatus).toBe('APPROVED');
    const res = await p.api.post('/verifications', { customerId: created.body.id });
    expect(res.status).toBe(400);
    expect(res.body.reason).toContain('APPROVED');
    expect(await h.orm.em.fork().count(Verification, { customerId: created.body.id })).toBe(0);
  });

  test('003 (UNVERIFIED at creation) with a complete packet: RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT', async () => {
    const p = await h.platform();
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada 003'));
    const doc = (await upload(p, person.id, 'PASSPORT')).body;
    const res = await p.api.post('/verifications', { customerId: person.id });
    expect(res.body).toMatchObject({
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [
        {
          resourceId: doc.id,
          type: 'POOR_QUALITY_DOCUMENT',
          acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
          reason: expect.any(String),
        },
      ],
    });
    // Complete but sent back for its document's quality: another upload does not make it ready (only a resubmission judges it).
    expect((await upload(p, person.id, 'UTILITY_BILL')).status).toBe(201);
    expect((await p.api.get(`/verifications/${res.body.id}`)).body.verificationStatus).toBe('RESOLVE_ERRORS');
    // Not submitted: the poor document may still be deleted.
    expect((await p.api.delete(`/documents/${doc.id}`)).status).toBe(204);
  });

  test('001 (PENDING at creation): incomplete → RESOLVE_ERRORS, complete → PENDING_MANUAL_REVIEW', async () => {
    const p = await h.platform();
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada 001', { kycStatus: 'PENDING' }));
    const first = await p.api.post('/verifications', { customerId: person.id });
    expect(first.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors: [expect.objectContaining({ type: 'MISSING_IDENTITY_DOCUMENT' })] });
    await upload(p, person.id, 'NATIONAL_ID');
    expect((await p.api.post('/verifications', { customerId: person.id })).body).toMatchObject({
      id: first.body.id,
      verificationStatus: 'PENDING_MANUAL_REVIEW',
    });
  });
});

describe('POST /verifications: unregulated platform', () => {
  test('incomplete individual: RESOLVE_ERRORS with due-diligence fields and the identity document', async () => {
    const p = await h.platform({ isRegulatedFinancialInstitution: false });
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, { fullName: 'Ada Lovelace', address: US_ADDRESS });
    const res = await p.api.post('/verifications', { customerId: person.id });
    expect(res.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(res.body.errors.map((e: { type: string; field?: string }) => e.field ?? e.type)).toEqual([
      'customer.birthDate',
      'customer.idType',
      'customer.identifier',
      'customer.purposeOfAccount',
      'customer.sourceOfFundsCategories',
      'customer.expectedMonthlyTransactionVolume',
      'MISSING_IDENTITY_DOCUMENT',
    ]);
    expect((await customerRow(person.id)).kycStatus).toBe('UNVERIFIED');
  });

  test('complete individual whose name ends in 002: IN_PROGRESS, then REJECTED after the timer', async () => {
    const p = await h.platform({ isRegulatedFinancialInstitution: false });
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada 002'));
    await upload(p, person.id, 'PASSPORT');
    const res = await p.api.post('/verifications', { customerId: person.id });
    expect(res.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    expect((await customerRow(person.id)).kycStatus).toBe('PENDING');
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYC_PENDING').some((x) => x.body.data.id === person.id));
    await h.receiver.waitFor(() => h.receiver.ofType('CUSTOMER.KYC_REJECTED').some((x) => x.body.data.id === person.id), 30_000);
    expect((await p.api.get(`/verifications/${res.body.id}`)).body.verificationStatus).toBe('REJECTED');
    expect(await accountsOf(person.id)).toEqual([]);
  });

  test('simultaneous submissions for one customer: one verification, one workflow', async () => {
    const p = await h.platform({ isRegulatedFinancialInstitution: false });
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada Lovelace'));
    await upload(p, person.id, 'PASSPORT');
    const results = await Promise.all([1, 2, 3].map(() => p.api.post('/verifications', { customerId: person.id })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.body.verificationStatus === 'IN_PROGRESS')).toBe(true);
    expect(await h.orm.em.fork().count(Verification, { customerId: person.id })).toBe(1);
    const runs: string[] = [];
    for await (const wf of h.temporal.workflow.list({ query: `WorkflowId = "${results[0]!.body.id}"` })) runs.push(wf.runId);
    expect(runs.length).toBeLessThanOrEqual(1);
    expect(h.receiver.ofType('CUSTOMER.KYC_PENDING').filter((x) => x.body.data.id === person.id).length).toBeLessThanOrEqual(1);
  });
});

describe('POST /verifications: input and isolation', () => {
  test('customerId is required; unknown, foreign and deleted customers are 404', async () => {
    const p = await h.platform();
    const missing = await p.api.post('/verifications', {});
    expect(missing.status).toBe(400);
    expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'customerId', constraint: expect.objectContaining({ rule: 'required' }) })]);
    expect((await p.api.post('/verifications', { customerId: 'Customer:00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const other = await h.platform();
    const foreign = await insertCustomer(h.orm, h.masterKey, other.platform.id, businessFields('REG-777'));
    const res = await p.api.post('/verifications', { customerId: foreign.id });
    expect(res.status).toBe(404);
    expect((await customerRow(foreign.id)).kycStatus).toBe('UNVERIFIED');
    const deleted = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-777', { isDeleted: true }));
    expect((await p.api.post('/verifications', { customerId: deleted.id })).status).toBe(404);
  });
});

describe('GET /verifications', () => {
  test('lists with customerId and verificationStatus filters and a cursor; fetches one; other platforms see nothing', async () => {
    const p = await h.platform();
    const a = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-777'));
    const b = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-002'));
    const c = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    const va = (await p.api.post('/verifications', { customerId: a.id })).body;
    const vb = (await p.api.post('/verifications', { customerId: b.id })).body;
    const vc = (await p.api.post('/verifications', { customerId: c.id })).body;
    expect([va.verificationStatus, vb.verificationStatus, vc.verificationStatus]).toEqual(['APPROVED', 'REJECTED', 'RESOLVE_ERRORS']);

    const page1 = await p.api.get('/verifications?limit=2');
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(page1.body.data.map((v: { id: string }) => v.id)).toEqual([vc.id, vb.id]);
    const page2 = await p.api.get(`/verifications?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((v: { id: string }) => v.id)).toEqual([va.id]);
    expect((await p.api.get(`/verifications?customerId=${encodeURIComponent(b.id)}`)).body.data.map((v: { id: string }) => v.id)).toEqual([vb.id]);
    expect((await p.api.get('/verifications?verificationStatus=RESOLVE_ERRORS')).body.data).toEqual([vc]);
    expect((await p.api.get('/verifications?verificationStatus=DONE')).status).toBe(400);
    expect((await p.api.get(`/verifications/${va.id}`)).body).toEqual(va);
    expect((await p.api.get('/verifications/Verification:00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const intruder = await h.platform();
    expect((await intruder.api.get('/verifications')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await intruder.api.get(`/verifications?customerId=${encodeURIComponent(a.id)}`)).body.data).toEqual([]);
    expect((await intruder.api.get(`/verifications/${va.id}`)).status).toBe(404);
  });
});

describe('POST /customers/{id}/kyc-link', () => {
  test('201 with a single-use hosted link, an SDK token and an expiry; the KYC status does not change', async () => {
    const p = await h.platform({ isRegulatedFinancialInstitution: false });
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada Lovelace'));
    const res = await p.api.post(`/customers/${person.id}/kyc-link`, { redirectUri: 'https://platform.example/done' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kycUrl: expect.stringMatching(/^https:\/\/.+\/onboard\/[A-Za-z0-9_-]{32}$/),
      expiresAt: expect.any(String),
      provider: 'SUMSUB',
      token: expect.any(String),
    });
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());
    expect((await customerRow(person.id)).kycStatus).toBe('UNVERIFIED');
    const again = await p.api.post(`/customers/${person.id}/kyc-link`);
    expect(again.status).toBe(201);
    expect(again.body.kycUrl).not.toBe(res.body.kycUrl);
    const links = await h.orm.em.fork().find(KycLink, { customerId: person.id });
    expect(links).toHaveLength(2);
    const token = res.body.kycUrl.split('/').pop();
    expect(JSON.stringify(links)).not.toContain(token);
    expect(links.find((l) => l.redirectUri)?.redirectUri).toBe('https://platform.example/done');
  });

  test('idempotent with an Idempotency-Key: the same link once', async () => {
    const p = await h.platform();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    const first = await p.api.post(`/customers/${biz.id}/kyc-link`, {}, { 'Idempotency-Key': 'link-1' });
    const second = await p.api.post(`/customers/${biz.id}/kyc-link`, {}, { 'Idempotency-Key': 'link-1' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await h.orm.em.fork().count(KycLink, { customerId: biz.id })).toBe(1);
  });

  test("409 while the customer's contact details still need verification", async () => {
    const p = await h.platform({ region: 'EU' });
    const person = await insertCustomer(
      h.orm,
      h.masterKey,
      p.platform.id,
      individualFields('Eva Muster', { regionCode: 'EU', contactVerification: { email: 'VERIFIED', phone: 'PENDING' } }),
    );
    const res = await p.api.post(`/customers/${person.id}/kyc-link`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', details: { unverifiedChannels: ['phone'] } });
    expect(await h.orm.em.fork().count(KycLink, { customerId: person.id })).toBe(0);
    await h.orm.em.fork().nativeUpdate(Customer, { id: person.id }, { contactVerification: { email: 'VERIFIED', phone: 'VERIFIED' } });
    expect((await p.api.post(`/customers/${person.id}/kyc-link`)).status).toBe(201);
  });

  test('bad redirectUri is 400; unknown and foreign customers are 404', async () => {
    const p = await h.platform();
    const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada Lovelace'));
    const bad = await p.api.post(`/customers/${person.id}/kyc-link`, { redirectUri: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: 'redirectUri' })]);
    expect((await p.api.post('/customers/Customer:00000000-0000-4000-8000-000000000000/kyc-link')).status).toBe(404);
    const intruder = await h.platform();
    expect((await intruder.api.post(`/customers/${person.id}/kyc-link`)).status).toBe(404);
    expect(await h.orm.em.fork().count(KycLink, { customerId: person.id })).toBe(0);
  });
});

describe('money movement needs a customer who may hold balances', () => {
  async function fundable(p: Platform, over: Parameters<typeof insertCustomer>[3]) {
    const customer = await insertCustomer(h.orm, h.masterKey, p.platform.id, over);
    const em = h.orm.em.fork();
    const account = openInternalAccount(em, { platformId: p.platform.id, customerId: customer.id, currency: 'USD' });
    await em.flush();
    return { customer, accountId: account.id };
  }
  const balance = async (id: string) => (await h.orm.em.fork().findOneOrFail(LedgerAccount, { id })).balance;

  test.each(['UNVERIFIED', 'PENDING', 'REJECTED', 'HOLD'] as const)('a %s customer: 403 USER_NOT_READY, nothing moves', async (kycStatus) => {
    const p = await h.platform();
    const { accountId } = await fundable(p, { kycStatus });
    const res = await p.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'USER_NOT_READY', reason: expect.stringContaining(kycStatus) });
    expect(await balance(accountId)).toBe(0n);
    expect(await h.orm.em.fork().count(Transaction, { destination: { accountId } })).toBe(0);
  });

  test('unregulated platform, approved but without the end-user terms: 403 END_USER_TERMS_NOT_ACCEPTED; with them it moves', async () => {
    const p = await h.platform({ isRegulatedFinancialInstitution: false });
    const { customer, accountId } = await fundable(p, { kycStatus: 'APPROVED' });
    const res = await p.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('END_USER_TERMS_NOT_ACCEPTED');
    expect(await balance(accountId)).toBe(0n);
    const consent = {
      agreementType: 'SVC_END_USER_TERMS',
      termsVersion: '2025-10-13',
      acceptedAt: new Date().toISOString(),
      ipAddress: '127.0.0.1',
      acceptanceMethod: 'CHECKBOX' as const,
    };
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { agreementConsents: [consent] });
    expect((await p.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 })).status).toBe(200);
    expect(await balance(accountId)).toBe(100n);
  });
});
