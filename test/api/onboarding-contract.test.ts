import request from 'supertest';
import { BeneficialOwner, ContactVerificationCode, Customer, Document, KycLink, Verification } from '../../src/contexts/customers/entities';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { Transaction } from '../../src/contexts/payments/entities';
import { BASE, Harness } from '../support/harness';
import { businessFields, FILES, insertCustomer, ownerBody } from '../support/onboarding-fixtures';
import { seedCustomer } from '../support/onboarding-seed';

// Issue 3 as a whole: every endpoint is documented, answers bad input with the §7 error body
// listing every invalid field, and never shows or changes another platform's resources.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;
type Res = { status: number; body: Body };

/** Every operation of issue 3 (reference §1: Customers, Contact Verification, KYC/KYB Verifications, Documents, Internal Accounts). */
const OPERATIONS: [method: string, path: string, operationId: string][] = [
  ['post', '/customers', 'createCustomer'],
  ['get', '/customers', 'listCustomers'],
  ['get', '/customers/{customerId}', 'getCustomerById'],
  ['patch', '/customers/{customerId}', 'updateCustomerById'],
  ['delete', '/customers/{customerId}', 'deleteCustomerById'],
  ['get', '/customers/end-user-terms', 'getEndUserTerms'],
  ['post', '/customers/{customerId}/verify-email', 'sendCustomerEmailVerification'],
  ['post', '/customers/{customerId}/verify-email/confirm', 'confirmCustomerEmailVerification'],
  ['post', '/customers/{customerId}/verify-phone', 'sendCustomerPhoneVerification'],
  ['post', '/customers/{customerId}/verify-phone/confirm', 'confirmCustomerPhoneVerification'],
  ['post', '/customers/{customerId}/kyc-link', 'createCustomerKycLink'],
  ['post', '/beneficial-owners', 'createBeneficialOwner'],
  ['get', '/beneficial-owners', 'listBeneficialOwners'],
  ['get', '/beneficial-owners/{beneficialOwnerId}', 'getBeneficialOwner'],
  ['patch', '/beneficial-owners/{beneficialOwnerId}', 'updateBeneficialOwner'],
  ['post', '/verifications', 'createVerification'],
  ['get', '/verifications', 'listVerifications'],
  ['get', '/verifications/{verificationId}', 'getVerification'],
  ['post', '/documents', 'uploadDocument'],
  ['get', '/documents', 'listDocuments'],
  ['get', '/documents/{documentId}', 'getDocument'],
  ['put', '/documents/{documentId}', 'replaceDocument'],
  ['delete', '/documents/{documentId}', 'deleteDocument'],
  ['get', '/customers/internal-accounts', 'listCustomerInternalAccounts'],
  ['get', '/platform/internal-accounts', 'listPlatformInternalAccounts'],
];

describe('OpenAPI document', () => {
  test('every endpoint of the issue is documented with its operationId, its 401 and (by id) its 404', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    for (const [method, path, operationId] of OPERATIONS) {
      const op = doc.paths[path]?.[method];
      expect({ method, path, operationId: op?.operationId }).toEqual({ method, path, operationId });
      expect(Object.keys(op.responses)).toContain('401');
      if (path.includes('{'))
        expect({ path, method, responses: Object.keys(op.responses) }).toEqual({ path, method, responses: expect.arrayContaining(['404']) });
      if (op.requestBody || op.parameters?.some((p: { in: string }) => p.in === 'query')) {
        expect({ path, method, responses: Object.keys(op.responses) }).toEqual({ path, method, responses: expect.arrayContaining(['400']) });
      }
    }
  });
});

/** One platform's onboarding in progress: an EU individual, a business with an owner, documents, a verification, accounts. */
async function onboarded(p: Platform) {
  const { customer } = await seedCustomer(h, p.platform.id);
  const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
  const owner = await p.api.post('/beneficial-owners', ownerBody(biz.id));
  expect(owner.status).toBe(201);
  const upload = (holder: string, documentType: string) =>
    request(h.app)
      .post(`${BASE}/documents`)
      .set('Authorization', p.auth)
      .field('documentType', documentType)
      .field('country', 'US')
      .field('documentHolder', holder)
      .attach('file', FILES.pdf, { filename: 'doc.pdf', contentType: 'application/pdf' });
  const customerDoc = await upload(customer.id, 'PASSPORT');
  const ownerDoc = await upload(owner.body.id, 'PASSPORT');
  expect([customerDoc.status, ownerDoc.status]).toEqual([201, 201]);
  // Without the business's legal-presence document the verification stays RESOLVE_ERRORS: no timer changes it meanwhile.
  const verification = await p.api.post('/verifications', { customerId: biz.id });
  expect(verification.body.verificationStatus).toBe('RESOLVE_ERRORS');
  const customerAccount = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).body.data[0];
  const platformAccount = (await p.api.get('/platform/internal-accounts')).body.data[0];
  expect(customerAccount && platformAccount).toBeTruthy();
  return {
    customerId: customer.id,
    businessId: biz.id,
    ownerId: owner.body.id as string,
    customerDocId: customerDoc.body.id as string,
    ownerDocId: ownerDoc.body.id as string,
    verificationId: verification.body.id as string,
    customerAccountId: customerAccount.id as string,
    platformAccountId: platformAccount.id as string,
    platformCustomerId: customer.platformCustomerId,
    umaAddress: customer.umaAddress,
  };
}

type Ids = Awaited<ReturnType<typeof onboarded>>;

describe("a platform never sees or changes another platform's onboarding", () => {
  let owner: Platform;
  let intruder: Platform;
  let ids: Ids;
  let before: unknown;

  /** Everything the owner can see of its onboarding, and the rows an intruder's call could add. */
  async function state(p: Platform, i: Ids) {
    const get = async (path: string) => {
      const res = await p.api.get(path);
      return [res.status, res.body];
    };
    const em = h.orm.em.fork();
    const customers = [i.customerId, i.businessId];
    return {
      views: await Promise.all([
        get(`/customers/${i.customerId}`),
        get(`/customers/${i.businessId}`),
        get(`/beneficial-owners?customerId=${encodeURIComponent(i.businessId)}`),
        get('/documents'),
        get('/verifications'),
        get('/customers/internal-accounts'),
        get('/platform/internal-accounts'),
      ]),
      rows: {
        customers: await em.count(Customer, { platformId: p.platform.id }),
        owners: await em.count(BeneficialOwner, { platformId: p.platform.id }),
        documents: await em.count(Document, { platformId: p.platform.id }),
        verifications: await em.count(Verification, { platformId: p.platform.id }),
        kycLinks: await em.count(KycLink, { customerId: { $in: customers } }),
        contactCodes: await em.count(ContactVerificationCode, { customerId: { $in: customers } }),
        transactions: await em.count(Transaction, { platformId: p.platform.id }),
      },
    };
  }

  beforeAll(async () => {
    owner = await h.platform({ region: 'EU' });
    intruder = await h.platform({ region: 'EU' });
    ids = await onboarded(owner);
    before = await state(owner, ids);
  });

  const replace = (p: Platform, documentId: string) =>
    request(h.app)
      .put(`${BASE}/documents/${documentId}`)
      .set('Authorization', p.auth)
      .field('documentType', 'PASSPORT')
      .field('country', 'FR')
      .attach('file', FILES.png, { filename: 'new.png', contentType: 'image/png' });
  const upload = (p: Platform, holder: string) =>
    request(h.app)
      .post(`${BASE}/documents`)
      .set('Authorization', p.auth)
      .field('documentType', 'DRIVERS_LICENSE')
      .field('country', 'US')
      .field('documentHolder', holder)
      .attach('file', FILES.jpeg, { filename: 'dl.jpg', contentType: 'image/jpeg' });

  // Each call is valid for the intruder's own resources: only the other platform's id makes it fail.
  const byId: [string, (p: Platform, i: Ids) => Promise<Res>][] = [
    ['GET /customers/{id}', (p, i) => p.api.get(`/customers/${i.customerId}`)],
    ['GET /customers/{id} (business)', (p, i) => p.api.get(`/customers/${i.businessId}`)],
    ['PATCH /customers/{id}', (p, i) => p.api.patch(`/customers/${i.customerId}`, { customerType: 'INDIVIDUAL', fullName: 'Mallory' })],
    [
      'PATCH /customers/{id} (business)',
      (p, i) => p.api.patch(`/customers/${i.businessId}`, { customerType: 'BUSINESS', businessInfo: { legalName: 'Mallory Ltd' } }),
    ],
    ['DELETE /customers/{id}', (p, i) => p.api.delete(`/customers/${i.customerId}`)],
    ['DELETE /customers/{id} (business)', (p, i) => p.api.delete(`/customers/${i.businessId}`)],
    ['POST /customers/{id}/verify-email', (p, i) => p.api.post(`/customers/${i.customerId}/verify-email`)],
    ['POST /customers/{id}/verify-email/confirm', (p, i) => p.api.post(`/customers/${i.customerId}/verify-email/confirm`, { code: '123456' })],
    ['POST /customers/{id}/verify-phone', (p, i) => p.api.post(`/customers/${i.customerId}/verify-phone`)],
    ['POST /customers/{id}/verify-phone/confirm', (p, i) => p.api.post(`/customers/${i.customerId}/verify-phone/confirm`, { code: '123456' })],
    ['POST /customers/{id}/kyc-link', (p, i) => p.api.post(`/customers/${i.businessId}/kyc-link`, {})],
    ['POST /verifications', (p, i) => p.api.post('/verifications', { customerId: i.businessId })],
    ['GET /verifications/{id}', (p, i) => p.api.get(`/verifications/${i.verificationId}`)],
    ['POST /beneficial-owners', (p, i) => p.api.post('/beneficial-owners', ownerBody(i.businessId, { ownershipPercentage: 10 }, { lastName: 'Mallory' }))],
    ['GET /beneficial-owners/{id}', (p, i) => p.api.get(`/beneficial-owners/${i.ownerId}`)],
    ['PATCH /beneficial-owners/{id}', (p, i) => p.api.patch(`/beneficial-owners/${i.ownerId}`, { ownershipPercentage: 5 })],
    ['POST /documents (customer holder)', (p, i) => upload(p, i.customerId)],
    ['POST /documents (beneficial owner holder)', (p, i) => upload(p, i.ownerId)],
    ['GET /documents/{id}', (p, i) => p.api.get(`/documents/${i.customerDocId}`)],
    ['GET /documents/{id} (owner document)', (p, i) => p.api.get(`/documents/${i.ownerDocId}`)],
    ['PUT /documents/{id}', (p, i) => replace(p, i.customerDocId)],
    ['DELETE /documents/{id}', (p, i) => p.api.delete(`/documents/${i.ownerDocId}`)],
    [
      'POST /sandbox/internal-accounts/{id}/fund (customer account)',
      (p, i) => p.api.post(`/sandbox/internal-accounts/${i.customerAccountId}/fund`, { amount: 5 }),
    ],
    [
      'POST /sandbox/internal-accounts/{id}/fund (platform account)',
      (p, i) => p.api.post(`/sandbox/internal-accounts/${i.platformAccountId}/fund`, { amount: 5 }),
    ],
  ];

  test.each(byId)('%s with the other platform id: 404 (USER_NOT_FOUND for customers)', async (_name, call) => {
    const res = await call(intruder, ids);
    // The reference's code for a customer; resources it has no code for answer NOT_FOUND.
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 404,
      code: res.body.message === 'Customer not found' ? 'USER_NOT_FOUND' : 'NOT_FOUND',
    });
  });

  // Lists filtered by the other platform's ids find nothing of it.
  const lists: [string, (i: Ids) => string, (body: Body) => unknown[]][] = [
    ['GET /customers', () => '/customers?isIncludingDeleted=true', (b) => b.data],
    ['GET /customers?platformCustomerId=', (i) => `/customers?platformCustomerId=${encodeURIComponent(i.platformCustomerId)}`, (b) => b.data],
    ['GET /customers?umaAddress=', (i) => `/customers?umaAddress=${encodeURIComponent(i.umaAddress)}`, (b) => b.data],
    ['GET /verifications?customerId=', (i) => `/verifications?customerId=${encodeURIComponent(i.businessId)}`, (b) => b.data],
    ['GET /beneficial-owners?customerId=', (i) => `/beneficial-owners?customerId=${encodeURIComponent(i.businessId)}`, (b) => b.data],
    ['GET /documents?documentHolder= (customer)', (i) => `/documents?documentHolder=${encodeURIComponent(i.customerId)}`, (b) => b.data],
    ['GET /documents?documentHolder= (owner)', (i) => `/documents?documentHolder=${encodeURIComponent(i.ownerId)}`, (b) => b.data],
    ['GET /customers/internal-accounts?customerId=', (i) => `/customers/internal-accounts?customerId=${encodeURIComponent(i.customerId)}`, (b) => b.data],
  ];

  test.each(lists)('%s with the other platform ids: an empty page', async (_name, path, data) => {
    const res = await intruder.api.get(path(ids));
    expect(res.status).toBe(200);
    expect(data(res.body)).toEqual([]);
    expect(res.body.totalCount).toBe(0);
  });

  test("GET /platform/internal-accounts lists only the caller's own accounts", async () => {
    const res = await intruder.api.get('/platform/internal-accounts');
    expect(res.status).toBe(200);
    const theirs = (await owner.api.get('/platform/internal-accounts')).body.data.map((a: { id: string }) => a.id);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.filter((a: { id: string }) => theirs.includes(a.id))).toEqual([]);
  });

  test('after all of the above, nothing of the owner changed and the intruder stored nothing', async () => {
    expect(await state(owner, ids)).toEqual(before);
    const em = h.orm.em.fork();
    expect(await em.count(Customer, { platformId: intruder.platform.id })).toBe(0);
    expect(await em.count(BeneficialOwner, { platformId: intruder.platform.id })).toBe(0);
    expect(await em.count(Document, { platformId: intruder.platform.id })).toBe(0);
    expect(await em.count(Verification, { platformId: intruder.platform.id })).toBe(0);
    expect(await em.count(IdempotencyRecord, { platformId: intruder.platform.id })).toBe(0);
  });
});

describe('bad input: the §7 error body with every invalid field at once', () => {
  let p: Platform;
  let ids: Ids;
  beforeAll(async () => {
    p = await h.platform({ region: 'EU' });
    ids = await onboarded(p);
  });

  const multipart = (method: 'post' | 'put', path: string, fields: Record<string, string>) => {
    let r = request(h.app)[method](`${BASE}${path}`).set('Authorization', p.auth);
    for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
    return r;
  };

  const cases: [string, (i: Ids) => Promise<Res>, string[]][] = [
    ['POST /customers', () => p.api.post('/customers', { customerType: 'INDIVIDUAL', email: 'x', phoneNumber: '1' }), ['email:email', 'phoneNumber:pattern']],
    ['GET /customers', () => p.api.get('/customers?limit=0&customerType=ROBOT'), ['customerType:enum', 'limit:minimum']],
    [
      'PATCH /customers/{id}',
      (i) => p.api.patch(`/customers/${i.customerId}`, { customerType: 'INDIVIDUAL', email: 'x', birthDate: 'yesterday' }),
      ['birthDate:date', 'email:email'],
    ],
    [
      'POST /customers/{id}/kyc-link',
      (i) => p.api.post(`/customers/${i.businessId}/kyc-link`, { redirectUri: 'not a url', extra: 1 }),
      ['body:additionalProperties', 'redirectUri:url'],
    ],
    ['POST /verifications', () => p.api.post('/verifications', { customerId: '', extra: 1 }), ['body:additionalProperties', 'customerId:minLength']],
    ['GET /verifications', () => p.api.get('/verifications?limit=0&verificationStatus=DONE'), ['limit:minimum', 'verificationStatus:enum']],
    [
      'POST /beneficial-owners',
      (i) => p.api.post('/beneficial-owners', ownerBody(i.businessId, { roles: ['OWNER'], ownershipPercentage: 50 }, { email: 'x', identifier: '123456789' })),
      ['ownershipPercentage:maximum', 'personalInfo.email:email', 'personalInfo.identifier:pattern', 'roles.0:enum'],
    ],
    ['GET /beneficial-owners', () => p.api.get('/beneficial-owners?limit=0'), ['customerId:required', 'limit:minimum']],
    [
      'PATCH /beneficial-owners/{id}',
      (i) => p.api.patch(`/beneficial-owners/${i.ownerId}`, { ownershipPercentage: -1, personalInfo: { email: 'x', identifier: '1' } }),
      ['ownershipPercentage:minimum', 'personalInfo.email:email', 'personalInfo.identifier:pattern'],
    ],
    [
      'POST /documents',
      (i) => multipart('post', '/documents', { documentType: 'PAYSLIP', country: 'USA', documentHolder: i.customerId }),
      ['country:iso3166-1-alpha-2', 'documentType:enum', 'file:required'],
    ],
    ['GET /documents', () => p.api.get('/documents?limit=101&documentHolder='), ['documentHolder:minLength', 'limit:maximum']],
    [
      'PUT /documents/{id}',
      (i) => multipart('put', `/documents/${i.customerDocId}`, { documentType: 'PAYSLIP', country: 'USA' }),
      ['country:iso3166-1-alpha-2', 'documentType:enum', 'file:required'],
    ],
    ['POST /customers/{id}/verify-email/confirm', (i) => p.api.post(`/customers/${i.customerId}/verify-email/confirm`, { code: '12' }), ['code:pattern']],
    [
      'GET /customers/internal-accounts',
      () => p.api.get('/customers/internal-accounts?limit=0&currency=XYZ&type=SAVINGS'),
      ['currency:enum', 'limit:minimum', 'type:enum'],
    ],
    ['GET /platform/internal-accounts', () => p.api.get('/platform/internal-accounts?currency=XYZ&type=SAVINGS'), ['currency:enum', 'type:enum']],
  ];

  test.each(cases)('%s', async (_name, call, expected) => {
    const res = await call(ids);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', reason: expect.any(String), message: expect.any(String) });
    for (const e of res.body.details.errors)
      expect(e).toEqual(
        expect.objectContaining({ field: expect.any(String), constraint: expect.objectContaining({ rule: expect.any(String) }), message: expect.any(String) }),
      );
    expect(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual(expected);
  });
});
