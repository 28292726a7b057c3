import request from 'supertest';
import { Customer } from '../../src/contexts/customers/entities';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { InternalAccount } from '../../src/contexts/ledger/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { currentTerms } from '../../src/contexts/customers/domain/agreements';
import { requestFingerprint } from '../../src/domain/idempotency';
import { decrypt } from '../../src/security/secrets';
import { eventually } from '../support/eventually';
import { BASE, Harness } from '../support/harness';
import { umaDomainOf } from '../../src/contexts/platforms/domain/uma-domains';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];
type FieldError = { field: string; constraint: { rule: string }; message: string; conflictingCurrencies?: string[] };

const errorsOf = (res: { body: { details?: { errors?: FieldError[] } } }) => res.body.details?.errors ?? [];
const fieldsOf = (res: { body: { details?: { errors?: FieldError[] } } }) =>
  errorsOf(res)
    .map((e) => `${e.field}:${e.constraint.rule}`)
    .sort();

let seq = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

const consent = (agreementType = 'SVC_END_USER_TERMS', termsVersion = '2025-10-13', acceptedAt = '2025-10-20T14:03:00Z') => ({
  agreementType,
  termsVersion,
  acceptedAt,
  ipAddress: '203.0.113.7',
  acceptanceMethod: 'CHECKBOX',
});
const endUserTermsConsent = (acceptedAt = '2025-10-20T14:03:00Z') => ({
  termsVersion: '2025-10-13',
  acceptedAt,
  ipAddress: '2001:db8::7',
  acceptanceMethod: 'CLICK_TO_ACCEPT',
});

const fullIndividual = () => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: uniqueId('ind'),
  email: 'john.doe@example.com',
  phoneNumber: '+14155551234',
  fullName: 'John Michael Doe',
  birthDate: '1990-01-15',
  nationality: 'US',
  address: { line1: '123 Main Street', line2: 'Apt 4B', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  idType: 'SSN',
  identifier: '123-45-6789',
  sourceOfFundsCategories: ['SALARY', 'OTHER'],
  sourceOfFundsOtherDescription: 'Contest winnings',
  sourceOfWealthCategories: ['SALARY', 'INVESTMENTS'],
  purposeOfAccount: 'P2P_TRANSFERS',
  expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
  expectedMonthlyTransactionVolume: 'VOLUME_10K_TO_100K',
  annualIncomeRange: 'RANGE_100K_250K',
  netWorthRange: 'RANGE_500K_1M',
  pepStatus: 'NONE',
});

const businessInfo = () => ({
  legalName: 'Acme Corporation, Inc.',
  doingBusinessAs: 'Acme',
  country: 'US',
  registrationNumber: '5523041',
  incorporatedOn: '2018-03-14',
  entityType: 'CORPORATION',
  taxId: '12-3456789',
  countriesOfOperation: ['US', 'MX'],
  businessType: 'FINANCE_AND_INSURANCE',
  purposeOfAccount: 'SUPPLIER_PAYMENTS',
  sourceOfFunds: 'Revenue from software sales',
  expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
  expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
  expectedRecipientJurisdictions: ['US', 'MX'],
  naicsCode: '522320',
  sourceOfFundsCategories: ['OPERATING_REVENUE'],
  expectedCounterpartyCountries: ['MX'],
  primaryContactFirstName: 'Jane',
  primaryContactLastName: 'Roe',
});

const fullBusiness = () => ({
  customerType: 'BUSINESS',
  platformCustomerId: uniqueId('biz'),
  email: 'ops@acme.example.com',
  phoneNumber: '+14155550000',
  address: { line1: '1 Market St', postalCode: '94105', city: 'San Francisco', country: 'US' },
  businessInfo: businessInfo(),
});

async function create(api: Api, body: Record<string, unknown> = {}) {
  const res = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: uniqueId('c'), ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: string; platformCustomerId: string; umaAddress: string; createdAt: string; updatedAt: string };
}

async function stored(id: string) {
  return h.orm.em.fork().findOneOrFail(Customer, { id });
}

async function accountsOf(customerId: string) {
  return (await h.orm.em.fork().find(InternalAccount, { customerId })).map((a) => `${a.type}:${a.currency}`).sort();
}

async function customerEvents(customerId: string) {
  const events = await h.orm.em.fork().find(WebhookEvent, { type: { $like: 'CUSTOMER.%' } });
  return events.filter((e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id === customerId).map((e) => e.type);
}

describe('POST /customers', () => {
  test('an individual with every field of the reference: 201, accounts provisioned, identifier sealed and never returned', async () => {
    const { api, platform } = await h.platform();
    const body = fullIndividual();
    const res = await api.post('/customers', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^Customer:[0-9a-f-]{36}$/),
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      platformCustomerId: body.platformCustomerId,
      umaAddress: expect.stringMatching(new RegExp(`^\\$[a-z0-9.-]+@${umaDomainOf(platform).replace(/\./g, '\\.')}$`)),
      region: 'US',
      currencies: ['USD', 'EUR'],
      email: body.email,
      phoneNumber: body.phoneNumber,
      fullName: body.fullName,
      birthDate: body.birthDate,
      nationality: 'US',
      address: body.address,
      idType: 'SSN',
      countryOfIssuance: 'US',
      sourceOfFundsCategories: ['SALARY', 'OTHER'],
      sourceOfFundsOtherDescription: 'Contest winnings',
      sourceOfWealthCategories: ['SALARY', 'INVESTMENTS'],
      purposeOfAccount: 'P2P_TRANSFERS',
      expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
      expectedMonthlyTransactionVolume: 'VOLUME_10K_TO_100K',
      annualIncomeRange: 'RANGE_100K_250K',
      netWorthRange: 'RANGE_500K_1M',
      pepStatus: 'NONE',
      isDeleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.text).not.toContain('123-45-6789');
    expect(res.body).not.toHaveProperty('agreementConsents');
    expect(res.body).not.toHaveProperty('endUserTermsConsent');

    const row = await stored(res.body.id);
    expect(row.platformId).toBe(platform.id);
    expect(row.identifierEncrypted).toMatch(/^v1\./);
    expect(row.identifierEncrypted).not.toContain('123-45-6789');
    expect(decrypt(h.masterKey, row.identifierEncrypted!)).toBe('123-45-6789');
    expect(JSON.stringify(row.profile)).not.toContain('123-45-6789');
    expect(await accountsOf(res.body.id)).toEqual(['INTERNAL_FIAT:EUR', 'INTERNAL_FIAT:USD']);
    expect((await api.get(`/customers/${res.body.id}`)).body).toEqual(res.body);
  });

  test('a business with every businessInfo field: kybStatus UNVERIFIED, no accounts yet', async () => {
    const { api } = await h.platform();
    const body = fullBusiness();
    const res = await api.post('/customers', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^Customer:/),
      customerType: 'BUSINESS',
      kybStatus: 'UNVERIFIED',
      platformCustomerId: body.platformCustomerId,
      umaAddress: expect.any(String),
      region: 'US',
      currencies: ['USD', 'EUR'],
      email: body.email,
      phoneNumber: body.phoneNumber,
      address: body.address,
      businessInfo: body.businessInfo,
      isDeleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('kycStatus');
    expect(await accountsOf(res.body.id)).toEqual([]);
  });

  test('platformCustomerId and umaAddress are generated when absent; a given umaAddress is kept', async () => {
    const { api, umaDomain } = await h.platform();
    const a = await api.post('/customers', { customerType: 'INDIVIDUAL' });
    const b = await api.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: `$Ada.Lovelace@${umaDomain}` });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.platformCustomerId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.body.platformCustomerId).not.toBe(b.body.platformCustomerId);
    // Without a domain of its own, the platform's default one: a subdomain of sandbox.uma.local.
    expect(a.body.umaAddress).toMatch(/^\$[a-z0-9.]+@[0-9a-f-]{36}\.sandbox\.uma\.local$/);
    expect(a.body.umaAddress.endsWith(`@${umaDomain}`)).toBe(true);
    expect(b.body.umaAddress).toBe(`$Ada.Lovelace@${umaDomain}`);
  });

  test("the generated UMA address uses the platform's UMA domain", async () => {
    const { api } = await h.platform();
    await api.patch('/config', { umaDomain: 'grace.pay.example.com' }).expect(200);
    const c = await create(api, { platformCustomerId: 'Grace_Hopper' });
    expect(c.umaAddress).toMatch(/^\$grace_hopper\.[0-9a-f]{8}@grace\.pay\.example\.com$/);
  });

  test('every invalid field of an individual is reported at once, and nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const res = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'x'.repeat(256),
      email: `${'a'.repeat(250)}@example.com`,
      phoneNumber: '+1 415 555 1234',
      fullName: 'x'.repeat(251),
      birthDate: '2999-01-01',
      nationality: 'UK',
      address: { line1: '', postalCode: '1', country: 'XX' },
      idType: 'SSN',
      identifier: '123456789',
      countryOfIssuance: 'DE',
      sourceOfFundsCategories: ['OTHER'],
      sourceOfWealthCategories: ['SALARY'],
      sourceOfWealthOtherDescription: 'should not be here',
      purposeOfAccount: 'OTHER',
      purposeOfAccountOtherDescription: 'x'.repeat(501),
      expectedMonthlyTransactionCount: 'LOTS',
      annualIncomeRange: 'RICH',
      netWorthRange: 'OVER_9000',
      pepStatus: 'MAYBE',
      umaAddress: 'alice@example.com',
      currencies: ['USD', 'XYZ'],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(res)).toEqual(
      [
        'address.country:iso3166-1-alpha-2',
        'address.line1:minLength',
        'annualIncomeRange:enum',
        'birthDate:past',
        'countryOfIssuance:enum',
        'currencies.1:enum',
        'email:maxLength',
        'expectedMonthlyTransactionCount:enum',
        'fullName:maxLength',
        'nationality:iso3166-1-alpha-2',
        'netWorthRange:enum',
        'pepStatus:enum',
        'phoneNumber:pattern',
        'platformCustomerId:maxLength',
        'purposeOfAccountOtherDescription:maxLength',
        'sourceOfFundsOtherDescription:required',
        'sourceOfWealthOtherDescription:notAllowed',
        'umaAddress:pattern',
      ].sort(),
    );
    expect(res.text).not.toContain('123456789');
    expect(await h.orm.em.fork().count(Customer, { platformId: platform.id })).toBe(0);
  });

  test('every invalid field of a business is reported at once', async () => {
    const { api } = await h.platform();
    const res = await api.post('/customers', {
      customerType: 'BUSINESS',
      businessInfo: {
        doingBusinessAs: 'Acme',
        countriesOfOperation: ['US', 'ZZ', 'US'],
        naicsCode: '5',
        entityType: 'COOPERATIVE',
        businessType: 'MAGIC',
        sourceOfFundsCategories: ['VENTURE_CAPITAL', 'OTHER'],
        purposeOfAccountOtherDescription: 'no purpose given',
        expectedRecipientJurisdictions: ['usa'],
        primaryContactFirstName: 'x'.repeat(251),
        sourceOfFunds: 'x'.repeat(501),
      },
      address: { line1: '1 Market St', country: 'US' },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(
      [
        'address.postalCode:required',
        'businessInfo.businessType:enum',
        'businessInfo.countriesOfOperation.1:iso3166-1-alpha-2',
        'businessInfo.countriesOfOperation.2:unique',
        'businessInfo.country:required',
        'businessInfo.entityType:enum',
        'businessInfo.expectedRecipientJurisdictions.0:iso3166-1-alpha-2',
        'businessInfo.incorporatedOn:required',
        'businessInfo.legalName:required',
        'businessInfo.naicsCode:pattern',
        'businessInfo.primaryContactFirstName:maxLength',
        'businessInfo.purposeOfAccountOtherDescription:notAllowed',
        'businessInfo.sourceOfFunds:maxLength',
        'businessInfo.sourceOfFundsOtherDescription:required',
        'businessInfo.taxId:required',
      ].sort(),
    );
  });

  test('businessInfo is required for a business; a US business gives an EIN; incorporation is not in the future', async () => {
    const { api } = await h.platform();
    expect(fieldsOf(await api.post('/customers', { customerType: 'BUSINESS' }))).toEqual(['businessInfo:required']);
    const res = await api.post('/customers', { customerType: 'BUSINESS', businessInfo: { ...businessInfo(), taxId: 'TAX-1', incorporatedOn: '2999-01-01' } });
    expect(fieldsOf(res)).toEqual(['businessInfo.incorporatedOn:past', 'businessInfo.taxId:pattern']);
    const foreign = await api.post('/customers', { customerType: 'BUSINESS', businessInfo: { ...businessInfo(), country: 'DE', taxId: 'DE123456789' } });
    expect(foreign.status).toBe(201);
  });

  test.each([
    ['missing', {}, 'required'],
    ['unknown', { customerType: 'ROBOT' }, 'enum'],
  ])('customerType %s is a field error', async (_name, body, constraint) => {
    const { api } = await h.platform();
    const res = await api.post('/customers', body);
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual([{ field: 'customerType', constraint: { rule: constraint }, message: expect.any(String) }]);
  });

  test.each([
    ['an SSN without dashes', { idType: 'SSN', identifier: '123456789' }, ['identifier:pattern']],
    ['an ITIN outside the ITIN groups', { idType: 'ITIN', identifier: '912-45-6789' }, ['identifier:pattern']],
    ['an SSN issued outside the US', { idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'CA' }, ['countryOfIssuance:enum']],
    ['a non-US tax id for a US holder', { idType: 'NON_US_TAX_ID', identifier: 'X12345' }, ['idType:enum']],
    ['an EIN for an individual', { idType: 'EIN', identifier: '12-3456789' }, ['idType:enum']],
    ['an identifier without idType', { identifier: '123-45-6789' }, ['idType:required']],
    ['an idType without identifier', { idType: 'ITIN' }, ['identifier:required']],
    ['a 101-character identifier', { idType: 'NON_US_TAX_ID', identifier: 'A'.repeat(101), countryOfIssuance: 'FR' }, ['identifier:maxLength']],
    ['an unknown idType', { idType: 'PASSPORT', identifier: 'X1' }, ['idType:enum']],
  ])('tax identification: %s is refused', async (_name, body, expected) => {
    const { api } = await h.platform();
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', ...body });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(expected);
  });

  test('tax identification: an ITIN, and a non-US tax id with its issuing country, are accepted', async () => {
    const { api } = await h.platform();
    const itin = await create(api, { idType: 'ITIN', identifier: '912-70-1234' });
    expect(itin).toMatchObject({ idType: 'ITIN', countryOfIssuance: 'US' });
    const foreign = await create(api, { idType: 'NON_US_TAX_ID', identifier: 'FR 12 345 678 901', countryOfIssuance: 'FR' });
    expect(foreign).toMatchObject({ idType: 'NON_US_TAX_ID', countryOfIssuance: 'FR' });
    expect(foreign).not.toHaveProperty('identifier');
  });

  test('a birth date must be a real past date', async () => {
    const { api } = await h.platform();
    for (const [birthDate, constraint] of [
      ['1990-02-30', 'date'],
      ['15/01/1990', 'date'],
      [new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), 'past'],
    ]) {
      const res = await api.post('/customers', { customerType: 'INDIVIDUAL', birthDate });
      expect(fieldsOf(res)).toEqual([`birthDate:${constraint}`]);
    }
  });

  test('currencies: the platform must offer each; a repeat is refused', async () => {
    const { api } = await h.platform();
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', currencies: ['USD', 'MXN', 'USD'], email: 'bad' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['currencies.1:supported', 'currencies.2:unique', 'email:email']);
    expect(fieldsOf(await api.post('/customers', { customerType: 'INDIVIDUAL', currencies: [] }))).toEqual(['currencies:minItems']);
  });

  test('currencies that need separate customers are refused, naming them, together with other invalid fields', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'EUR', 'GBP'] });
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', region: 'EU', currencies: ['EUR', 'GBP', 'USD'], phoneNumber: '555' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['currencies:separateCustomers', 'phoneNumber:pattern']);
    expect(errorsOf(res).find((e) => e.field === 'currencies')!.conflictingCurrencies).toEqual(['GBP']);
    const us = await api.post('/customers', { customerType: 'INDIVIDUAL', currencies: ['EUR', 'GBP'] });
    expect(errorsOf(us)[0]).toMatchObject({ field: 'currencies', conflictingCurrencies: ['EUR', 'GBP'] });
    // Allowed: EUR for an EU customer, GBP for a UK one, either for a US one.
    expect((await create(api, { region: 'DE', currencies: ['EUR', 'USD'] })).currencies).toEqual(['EUR', 'USD']);
    expect((await create(api, { region: 'GB', currencies: ['GBP'] })).region).toBe('GB');
    // The default leaves out what the region cannot hold.
    expect((await create(api, { region: 'EU' })).currencies).toEqual(['USD', 'EUR']);
    expect((await create(api, {})).currencies).toEqual(['USD']);
  });

  test("region defaults to the platform's jurisdiction and must be a country code (or EU)", async () => {
    const eu = await h.platform({ region: 'EU', currencies: ['EUR'] });
    expect((await create(eu.api)).region).toBe('EU');
    expect((await create(eu.api, { region: 'FR' })).region).toBe('FR');
    expect(fieldsOf(await eu.api.post('/customers', { customerType: 'INDIVIDUAL', region: 'Europe' }))).toEqual(['region:iso3166-1-alpha-2']);
  });

  test('agreementConsents are recorded, one per type, and shown with the deprecated endUserTermsConsent', async () => {
    const { api } = await h.platform();
    const c = await create(api, { agreementConsents: [consent(), consent('SVC_PRIVACY_NOTICE', '2025-06-01')] });
    expect(c.agreementConsents).toEqual([consent(), consent('SVC_PRIVACY_NOTICE', '2025-06-01')]);
    expect(c.endUserTermsConsent).toEqual({
      termsVersion: '2025-10-13',
      acceptedAt: '2025-10-20T14:03:00Z',
      ipAddress: '203.0.113.7',
      acceptanceMethod: 'CHECKBOX',
    });
  });

  test('the deprecated endUserTermsConsent on create is an SVC_END_USER_TERMS consent', async () => {
    const { api } = await h.platform();
    const c = await create(api, { endUserTermsConsent: endUserTermsConsent() });
    expect(c.agreementConsents).toEqual([{ agreementType: 'SVC_END_USER_TERMS', ...endUserTermsConsent() }]);
    expect(c.endUserTermsConsent).toEqual(endUserTermsConsent());
  });

  test('consent errors: both fields, a repeated type, a bad entry', async () => {
    const { api } = await h.platform();
    const both = await api.post('/customers', { customerType: 'INDIVIDUAL', agreementConsents: [consent()], endUserTermsConsent: endUserTermsConsent() });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(both)).toEqual(['agreementConsents:exclusive', 'endUserTermsConsent:exclusive']);
    const repeated = await api.post('/customers', { customerType: 'BUSINESS', businessInfo: businessInfo(), agreementConsents: [consent(), consent()] });
    expect(fieldsOf(repeated)).toEqual(['agreementConsents.1.agreementType:unique']);
    const bad = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      agreementConsents: [
        { agreementType: 'GRID_END_USER_TERMS', termsVersion: '', acceptedAt: 'yesterday', ipAddress: `${'1'.repeat(46)}`, acceptanceMethod: 'NOD' },
      ],
    });
    expect(fieldsOf(bad)).toEqual([
      'agreementConsents.0.acceptanceMethod:enum',
      'agreementConsents.0.acceptedAt:datetime',
      'agreementConsents.0.agreementType:enum',
      'agreementConsents.0.ipAddress:maxLength',
      'agreementConsents.0.termsVersion:minLength',
    ]);
    const future = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      endUserTermsConsent: { ...endUserTermsConsent(new Date(Date.now() + 3_600_000).toISOString()), ipAddress: 'home' },
    });
    expect(fieldsOf(future)).toEqual(['endUserTermsConsent.acceptedAt:past', 'endUserTermsConsent.ipAddress:ip']);
  });

  test('an unknown terms version is 400 END_USER_TERMS_VERSION_NOT_FOUND and nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', endUserTermsConsent: { ...endUserTermsConsent(), termsVersion: '1999-01-01' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'END_USER_TERMS_VERSION_NOT_FOUND', details: { agreementType: 'SVC_END_USER_TERMS', termsVersion: '1999-01-01' } });
    const wrongAgreement = await api.post('/customers', { customerType: 'INDIVIDUAL', agreementConsents: [consent('SVC_PRIVACY_NOTICE', '2025-10-13')] });
    expect(wrongAgreement.body.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND');
    expect(await h.orm.em.fork().count(Customer, { platformId: platform.id })).toBe(0);
  });

  test('on an unregulated platform customers start UNVERIFIED and hold no accounts, consent or not', async () => {
    const { api } = await h.platform({ isRegulatedFinancialInstitution: false });
    const c = await create(api, { fullName: 'Ada Lovelace', endUserTermsConsent: endUserTermsConsent() });
    expect(c.kycStatus).toBe('UNVERIFIED');
    expect(await accountsOf(c.id)).toEqual([]);
  });

  test('a platformCustomerId used by an active customer is 409 CONFLICT; another platform may use it', async () => {
    const { api } = await h.platform();
    await create(api, { platformCustomerId: 'taken' });
    const res = await api.post('/customers', { customerType: 'BUSINESS', platformCustomerId: 'taken', businessInfo: businessInfo() });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    const other = await h.platform();
    expect((await other.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'taken' })).status).toBe(201);
  });

  test("a UMA address in use (in any case) is 409 UMA_ADDRESS_EXISTS; on another platform's domain it is 400, never a 409 about another platform", async () => {
    const { api, uma } = await h.platform();
    const address = uma(uniqueId('uma').toLowerCase());
    await create(api, { umaAddress: address });
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: address.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UMA_ADDRESS_EXISTS');
    const other = await h.platform();
    const foreign = await other.api.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: address });
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['umaAddress:domain']);
  });

  test('two simultaneous creates with one platformCustomerId: one customer and one 409', async () => {
    const { api, platform } = await h.platform();
    const id = uniqueId('race');
    const race = await Promise.all([
      api.post('/customers', { ...fullIndividual(), platformCustomerId: id }),
      api.post('/customers', { ...fullBusiness(), platformCustomerId: id }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(race.find((r) => r.status === 409)!.body.code).toBe('CONFLICT');
    expect(await h.orm.em.fork().count(Customer, { platformId: platform.id, platformCustomerId: id })).toBe(1);
  });

  test('two simultaneous creates with one UMA address: one customer and one 409 UMA_ADDRESS_EXISTS', async () => {
    const { api, uma } = await h.platform();
    const address = uma(uniqueId('race').toLowerCase());
    const race = await Promise.all([
      api.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: address }),
      api.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: address }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(race.find((r) => r.status === 409)!.body.code).toBe('UMA_ADDRESS_EXISTS');
  });

  test('the identifier is in no stored response, webhook or idempotency record', async () => {
    const { api, platform } = await h.platform();
    const key = uniqueId('key');
    const body = { ...fullIndividual(), identifier: '234-56-7890' };
    const res = await api.post('/customers', body, { 'Idempotency-Key': key });
    expect(res.status).toBe(201);
    const em = h.orm.em.fork();
    const record = await eventually(
      () => em.findOne(IdempotencyRecord, { platformId: platform.id, key }, { refresh: true }),
      (r) => r?.state === 'COMPLETED',
    );
    expect(record?.responseBody).toContain(res.body.id);
    expect(JSON.stringify(record)).not.toContain('234-56-7890');
    // The request fingerprint is keyed: the body alone (guessing the identifier) does not reproduce it.
    expect(record?.fingerprint).not.toBe(requestFingerprint('POST', `${BASE}/customers`, body));
    const events = await em.find(WebhookEvent, { payload: { $like: `%${res.body.id}%` } });
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.payload).not.toContain('234-56-7890');
  });
});

describe('POST /customers retried with its Idempotency-Key', () => {
  // As if the API had died after the customer's commit, before the idempotency store kept the answer.
  const forgetAnswer = (platformId: string, key: string) => h.orm.em.fork().nativeDelete(IdempotencyRecord, { platformId, key });

  test('a create whose first attempt committed and died before answering is found again: 201, same customer, nothing created or announced twice', async () => {
    const { api, platform } = await h.platform();
    const key = uniqueId('create-died');
    const body = fullIndividual();
    const first = await api.post('/customers', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(await forgetAnswer(platform.id, key)).toBe(1);

    const retried = await api.post('/customers', body, { 'Idempotency-Key': key });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body).toEqual(first.body);
    const em = h.orm.em.fork();
    expect(await em.count(Customer, { platformId: platform.id })).toBe(1);
    expect(await accountsOf(first.body.id)).toEqual(['INTERNAL_FIAT:EUR', 'INTERNAL_FIAT:USD']);
    expect(await customerEvents(first.body.id)).toEqual(['CUSTOMER.KYC_APPROVED']);
    expect(await em.count(WebhookEvent, { platformId: platform.id, type: 'INTERNAL_ACCOUNT.STATUS_UPDATED' })).toBe(2);
  });

  test('other keys are other customers, and another platform may use the same key', async () => {
    const { api, platform } = await h.platform();
    const other = await h.platform();
    const key = uniqueId('shared-key');
    const a = await api.post('/customers', fullIndividual(), { 'Idempotency-Key': key });
    const b = await api.post('/customers', fullIndividual(), { 'Idempotency-Key': uniqueId('another-key') });
    const elsewhere = await other.api.post('/customers', fullIndividual(), { 'Idempotency-Key': key });
    expect([a.status, b.status, elsewhere.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.id, b.body.id, elsewhere.body.id]).size).toBe(3);
    expect(await h.orm.em.fork().count(Customer, { platformId: platform.id })).toBe(2);
    expect((await stored(elsewhere.body.id)).platformId).toBe(other.platform.id);
  });
});

describe('KYC webhooks', () => {
  test.each([
    ['Ada Lovelace', 'APPROVED', 'CUSTOMER.KYC_APPROVED'],
    ['Test User 001', 'PENDING', 'CUSTOMER.KYC_PENDING'],
    ['Test User 002', 'REJECTED', 'CUSTOMER.KYC_REJECTED'],
  ])('an individual created as %s (%s) is announced with %s and the customer as data', async (fullName, status, type) => {
    const { api } = await h.platform();
    const c = await create(api, { fullName });
    expect(c.kycStatus).toBe(status);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === type && x.body.data.id === c.id));
    const hook = h.receiver.ofType(type).find((x) => x.body.data.id === c.id)!;
    expect(hook.body.data).toEqual(c);
    expect(hook.headers['x-svc-signature']).toBeDefined();
    expect(await customerEvents(c.id)).toEqual([type]);
  });

  test('no event for statuses without one: UNVERIFIED individuals (suffix 003, unregulated) and new businesses', async () => {
    const regulated = await h.platform();
    const unverified = await create(regulated.api, { fullName: 'Test User 003' });
    expect(unverified.kycStatus).toBe('UNVERIFIED');
    const business = (await regulated.api.post('/customers', fullBusiness())).body;
    const unregulated = await h.platform({ isRegulatedFinancialInstitution: false });
    const plain = await create(unregulated.api, { fullName: 'Ada Lovelace' });
    for (const id of [unverified.id, business.id, plain.id]) expect(await customerEvents(id)).toEqual([]);
  });

  test('an updated customer is not announced again while its status stays', async () => {
    const { api } = await h.platform();
    const c = await create(api, { fullName: 'Ada Lovelace' });
    await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Ada King' }).expect(200);
    expect(await customerEvents(c.id)).toEqual(['CUSTOMER.KYC_APPROVED']);
  });
});

describe('GET /customers/{customerId}', () => {
  test("returns the customer; another platform's or an unknown id is 404", async () => {
    const { api } = await h.platform();
    const c = await create(api);
    expect((await api.get(`/customers/${c.id}`)).body).toEqual(c);
    const other = await h.platform();
    const res = await other.api.get(`/customers/${c.id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('USER_NOT_FOUND');
    expect((await api.get('/customers/Customer:00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('GET /customers/end-user-terms', () => {
  test('the current version and its URL', async () => {
    const { api } = await h.platform();
    const res = await api.get('/customers/end-user-terms');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: currentTerms().version, url: currentTerms().url });
    expect(res.body.version).toBe('2025-10-13');
  });

  test('needs credentials', async () => {
    expect((await request(h.app).get(`${BASE}/customers/end-user-terms`)).status).toBe(401);
  });

  test('the version it returns is accepted in a consent', async () => {
    const { api } = await h.platform();
    const { version } = (await api.get('/customers/end-user-terms')).body;
    const c = await create(api, { endUserTermsConsent: { ...endUserTermsConsent(), termsVersion: version } });
    expect(c.endUserTermsConsent).toMatchObject({ termsVersion: version });
  });
});

describe('GET /customers', () => {
  async function listIds(api: Api, query: string) {
    const res = await api.get(`/customers${query}`);
    expect(res.status).toBe(200);
    return (res.body.data as { id: string }[]).map((c) => c.id);
  }

  test('newest first with totalCount; cursor pages through every customer once', async () => {
    const { api } = await h.platform();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(api)).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.get(`/customers?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.totalCount).toBe(5);
      expect(res.body.hasMore).toBe(res.body.nextCursor !== undefined);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  test('every filter of the reference', async () => {
    const { api, uma } = await h.platform({ currencies: ['USD', 'EUR', 'USDC'] });
    const a = await create(api, { platformCustomerId: 'alpha', currencies: ['USD'], umaAddress: uma(uniqueId('alpha').toLowerCase()) });
    await new Promise((r) => setTimeout(r, 20));
    const b = (await api.post('/customers', { ...fullBusiness(), platformCustomerId: 'beta', currencies: ['USDC'] })).body;
    await new Promise((r) => setTimeout(r, 20));
    const c = await create(api, { platformCustomerId: 'gamma', region: 'DE', currencies: ['EUR', 'USDC'] });

    expect(await listIds(api, '?platformCustomerId=beta')).toEqual([b.id]);
    expect(await listIds(api, '?customerType=BUSINESS')).toEqual([b.id]);
    expect(await listIds(api, '?customerType=INDIVIDUAL')).toEqual([c.id, a.id]);
    expect(await listIds(api, '?region=DE')).toEqual([c.id]);
    expect(await listIds(api, '?region=US')).toEqual([b.id, a.id]);
    expect(await listIds(api, '?currency=USDC')).toEqual([c.id, b.id]);
    expect(await listIds(api, '?currency=USD')).toEqual([a.id]);
    expect(await listIds(api, `?umaAddress=${encodeURIComponent(a.umaAddress.toUpperCase())}`)).toEqual([a.id]);
    // Date bounds are inclusive.
    expect(await listIds(api, `?createdAfter=${encodeURIComponent(b.createdAt)}`)).toEqual([c.id, b.id]);
    expect(await listIds(api, `?createdBefore=${encodeURIComponent(b.createdAt)}`)).toEqual([b.id, a.id]);
    expect(await listIds(api, `?createdAfter=${encodeURIComponent(b.createdAt)}&createdBefore=${encodeURIComponent(b.createdAt)}`)).toEqual([b.id]);
    await new Promise((r) => setTimeout(r, 20));
    const patched = (await api.patch(`/customers/${a.id}`, { customerType: 'INDIVIDUAL', fullName: 'Alpha Updated' })).body;
    expect(await listIds(api, `?updatedAfter=${encodeURIComponent(patched.updatedAt)}`)).toEqual([a.id]);
    expect(await listIds(api, `?updatedBefore=${encodeURIComponent(c.updatedAt)}`)).toEqual([c.id, b.id]);
    // Filters combine.
    expect(await listIds(api, '?customerType=INDIVIDUAL&currency=USDC&region=DE')).toEqual([c.id]);
    expect(await listIds(api, '?customerType=BUSINESS&region=DE')).toEqual([]);
    const res = await api.get('/customers?currency=USDC&limit=1');
    expect(res.body).toMatchObject({ totalCount: 2, hasMore: true });
  });

  test('deleted customers are left out unless isIncludingDeleted=true', async () => {
    const { api } = await h.platform();
    const kept = await create(api);
    const gone = await create(api);
    await api.delete(`/customers/${gone.id}`).expect(200);
    expect(await listIds(api, '')).toEqual([kept.id]);
    expect(await listIds(api, '?isIncludingDeleted=false')).toEqual([kept.id]);
    const all = await api.get('/customers?isIncludingDeleted=true');
    expect(all.body.data.map((c: { id: string; isDeleted: boolean }) => [c.id, c.isDeleted])).toEqual([
      [gone.id, true],
      [kept.id, false],
    ]);
    expect(all.body.totalCount).toBe(2);
  });

  test('invalid filters are all reported at once', async () => {
    const { api } = await h.platform();
    const res = await api.get('/customers?customerType=ROBOT&createdAfter=yesterday&currency=XYZ&isIncludingDeleted=maybe&region=Europe&limit=0');
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual([
      'createdAfter:datetime',
      'currency:enum',
      'customerType:enum',
      'isIncludingDeleted:enum',
      'limit:minimum',
      'region:iso3166-1-alpha-2',
    ]);
  });

  test("another platform's customers never appear", async () => {
    const owner = await h.platform();
    const c = await create(owner.api, { platformCustomerId: 'shared-id' });
    const other = await h.platform();
    const res = await other.api.get('/customers?isIncludingDeleted=true');
    expect(res.body).toMatchObject({ data: [], totalCount: 0, hasMore: false });
    expect((await other.api.get('/customers?platformCustomerId=shared-id')).body.data).toEqual([]);
    expect((await other.api.get(`/customers?umaAddress=${encodeURIComponent(c.umaAddress)}`)).body.data).toEqual([]);
  });
});

describe('PATCH /customers/{customerId}', () => {
  test('changes the fields sent and leaves the rest', async () => {
    const { api, uma } = await h.platform();
    const c = (await api.post('/customers', fullIndividual())).body;
    await new Promise((r) => setTimeout(r, 5));
    const res = await api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      fullName: 'John Q. Doe',
      birthDate: '1991-02-03',
      nationality: 'CA',
      address: { line1: '9 Elm St', postalCode: 'M5V 2T6', country: 'CA' },
      pepStatus: 'DOMESTIC',
      netWorthRange: 'OVER_25M',
      email: 'john.q@example.com',
      umaAddress: uma(uniqueId('john').toLowerCase()),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...c,
      fullName: 'John Q. Doe',
      birthDate: '1991-02-03',
      nationality: 'CA',
      address: { line1: '9 Elm St', postalCode: 'M5V 2T6', country: 'CA' },
      pepStatus: 'DOMESTIC',
      netWorthRange: 'OVER_25M',
      email: 'john.q@example.com',
      umaAddress: expect.stringMatching(/^\$john-/),
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(c.updatedAt));
    expect((await api.get(`/customers/${c.id}`)).body).toEqual(res.body);
  });

  test('a PATCH that changes nothing keeps updatedAt', async () => {
    const { api } = await h.platform();
    const c = await create(api, { fullName: 'Same Name' });
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Same Name' });
    expect(res.body.updatedAt).toBe(c.updatedAt);
  });

  test('customerType is required and must be the customer’s', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const missing = await api.patch(`/customers/${c.id}`, { fullName: 'X' });
    expect(fieldsOf(missing)).toEqual(['customerType:required']);
    const mismatch = await api.patch(`/customers/${c.id}`, { customerType: 'BUSINESS', businessInfo: { legalName: 'X' }, phoneNumber: 'bad' });
    expect(mismatch.status).toBe(400);
    expect(fieldsOf(mismatch)).toEqual(['customerType:match', 'phoneNumber:pattern']);
    expect((await api.get(`/customers/${c.id}`)).body).toEqual(c);
  });

  test('region and platformCustomerId cannot change (sent unchanged they are accepted)', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', region: 'DE', platformCustomerId: 'renamed' });
    expect(fieldsOf(res)).toEqual(['platformCustomerId:immutable', 'region:immutable']);
    const echoed = await api.patch(`/customers/${c.id}`, { ...c, fullName: 'Echo' });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ region: 'US', platformCustomerId: c.platformCustomerId, fullName: 'Echo' });
  });

  test('email and phoneNumber together are refused, naming both', async () => {
    const { api } = await h.platform();
    const c = await create(api, { email: 'old@example.com' });
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', email: 'new@example.com', phoneNumber: '+14155550199' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['email:exclusive', 'phoneNumber:exclusive']);
    expect((await stored(c.id)).email).toBe('old@example.com');
    expect((await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', phoneNumber: '+14155550199' })).body.phoneNumber).toBe('+14155550199');
  });

  test('every invalid field is reported at once, with rules that need the stored customer', async () => {
    const { api } = await h.platform();
    const c = await create(api, { sourceOfFundsCategories: ['SALARY'] });
    const res = await api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      sourceOfFundsOtherDescription: 'no OTHER on file',
      purposeOfAccount: 'OTHER',
      birthDate: '2100-01-01',
      identifier: '123-45-6789',
      currencies: ['USD', 'MXN'],
      email: 'nope',
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual([
      'birthDate:past',
      'currencies.1:supported',
      'email:email',
      'idType:required',
      'purposeOfAccountOtherDescription:required',
      'sourceOfFundsOtherDescription:notAllowed',
    ]);
  });

  test('the OTHER rule on update: a description alone needs OTHER on file; a new category without OTHER drops the old description', async () => {
    const { api } = await h.platform();
    const c = await create(api, { sourceOfWealthCategories: ['OTHER'], sourceOfWealthOtherDescription: 'Royalties' });
    const renamed = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', sourceOfWealthOtherDescription: 'Book royalties' });
    expect(renamed.body).toMatchObject({ sourceOfWealthCategories: ['OTHER'], sourceOfWealthOtherDescription: 'Book royalties' });
    const changed = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', sourceOfWealthCategories: ['SALARY'] });
    expect(changed.body.sourceOfWealthCategories).toEqual(['SALARY']);
    expect(changed.body).not.toHaveProperty('sourceOfWealthOtherDescription');
    const stale = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', sourceOfWealthOtherDescription: 'Royalties' });
    expect(fieldsOf(stale)).toEqual(['sourceOfWealthOtherDescription:notAllowed']);
  });

  test('the tax identification changes as a whole; the new number is sealed', async () => {
    const { api } = await h.platform();
    const c = await create(api, { idType: 'SSN', identifier: '123-45-6789' });
    const before = (await stored(c.id)).identifierEncrypted;
    expect(fieldsOf(await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', countryOfIssuance: 'FR' }))).toEqual([
      'countryOfIssuance:dependentRequired',
    ]);
    expect(fieldsOf(await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', idType: 'NON_US_TAX_ID', identifier: 'FR1234' }))).toEqual([
      'idType:enum',
    ]);
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', idType: 'NON_US_TAX_ID', identifier: 'FR1234', countryOfIssuance: 'FR' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ idType: 'NON_US_TAX_ID', countryOfIssuance: 'FR' });
    expect(res.text).not.toContain('FR1234');
    const after = (await stored(c.id)).identifierEncrypted!;
    expect(after).not.toBe(before);
    expect(decrypt(h.masterKey, after)).toBe('FR1234');
  });

  test('currencies replace the list and open the accounts now due, in the same step', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'EUR', 'USDC'] });
    const c = await create(api, { currencies: ['USD'] });
    expect(await accountsOf(c.id)).toEqual(['INTERNAL_FIAT:USD']);
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', currencies: ['EUR', 'USDC'] });
    expect(res.status).toBe(200);
    expect(res.body.currencies).toEqual(['EUR', 'USDC']);
    // Replaced, not merged; existing accounts are kept (a balance is never dropped).
    expect(await accountsOf(c.id)).toEqual(['INTERNAL_CRYPTO:USDC', 'INTERNAL_FIAT:EUR', 'INTERNAL_FIAT:USD']);
  });

  test('currencies that need separate customers are refused with the conflicting ones named', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'EUR', 'GBP'] });
    const c = await create(api, { region: 'GB', currencies: ['GBP'] });
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', currencies: ['GBP', 'EUR', 'USD'] });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual([
      {
        field: 'currencies',
        constraint: expect.objectContaining({ rule: 'separateCustomers' }),
        message: expect.stringContaining('EUR'),
        conflictingCurrencies: ['EUR'],
      },
    ]);
    expect((await stored(c.id)).currencies).toEqual(['GBP']);
  });

  test('agreementConsents add or renew per type and never withdraw the others', async () => {
    const { api } = await h.platform();
    const c = await create(api, { agreementConsents: [consent('SVC_PRIVACY_NOTICE', '2025-06-01')] });
    const added = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', agreementConsents: [consent()] });
    expect(added.body.agreementConsents).toEqual([consent(), consent('SVC_PRIVACY_NOTICE', '2025-06-01')]);
    const renewed = consent('SVC_END_USER_TERMS', '2025-10-13', '2025-11-02T08:00:00Z');
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', agreementConsents: [renewed] });
    expect(res.body.agreementConsents).toEqual([renewed, consent('SVC_PRIVACY_NOTICE', '2025-06-01')]);
    expect(res.body.endUserTermsConsent).toMatchObject({ acceptedAt: '2025-11-02T08:00:00Z' });
    // Omitted: unchanged.
    expect((await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Z' })).body.agreementConsents).toEqual(res.body.agreementConsents);
  });

  test('simultaneous acceptances of different agreements are all kept', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const results = await Promise.all([
      api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', agreementConsents: [consent()] }),
      api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', agreementConsents: [consent('SVC_PRIVACY_NOTICE', '2025-06-01')] }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await api.get(`/customers/${c.id}`)).body.agreementConsents.map((x: { agreementType: string }) => x.agreementType)).toEqual([
      'SVC_END_USER_TERMS',
      'SVC_PRIVACY_NOTICE',
    ]);
  });

  test('the deprecated endUserTermsConsent equals one SVC_END_USER_TERMS consent; both together are refused', async () => {
    const { api } = await h.platform();
    const c = await create(api, { agreementConsents: [consent('SVC_PRIVACY_NOTICE', '2025-06-01')] });
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', endUserTermsConsent: endUserTermsConsent() });
    expect(res.body.agreementConsents).toEqual([
      { agreementType: 'SVC_END_USER_TERMS', ...endUserTermsConsent() },
      consent('SVC_PRIVACY_NOTICE', '2025-06-01'),
    ]);
    const both = await api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      endUserTermsConsent: endUserTermsConsent(),
      agreementConsents: [consent()],
    });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(both)).toEqual(['agreementConsents:exclusive', 'endUserTermsConsent:exclusive']);
    const dupes = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', agreementConsents: [consent(), consent()] });
    expect(fieldsOf(dupes)).toEqual(['agreementConsents.1.agreementType:unique']);
  });

  test('an unknown terms version is 400 END_USER_TERMS_VERSION_NOT_FOUND and changes nothing', async () => {
    const { api } = await h.platform();
    const c = await create(api, { fullName: 'Before' });
    const res = await api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      fullName: 'After',
      agreementConsents: [consent('SVC_END_USER_TERMS', '2030-01-01')],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND');
    expect((await api.get(`/customers/${c.id}`)).body).toEqual(c);
  });

  test('accepting the terms provisions the accounts of an approved customer of an unregulated platform', async () => {
    const { api } = await h.platform({ isRegulatedFinancialInstitution: false });
    const c = await create(api);
    // Approval comes from verification; stand in for it here.
    await h.orm.em.fork().nativeUpdate(Customer, { id: c.id }, { kycStatus: 'APPROVED' });
    expect(await accountsOf(c.id)).toEqual([]);
    await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', endUserTermsConsent: endUserTermsConsent() }).expect(200);
    expect(await accountsOf(c.id)).toEqual(['INTERNAL_FIAT:EUR', 'INTERNAL_FIAT:USD']);
  });

  test('a changed email or phone must be verified again where the provider verifies contacts', async () => {
    // EU providers verify contacts (US ones do not: there contactVerification stays absent).
    const { api } = await h.platform({ region: 'EU' });
    const c = await create(api, { email: 'a@example.com', phoneNumber: '+4915112345678' });
    await h.orm.em.fork().nativeUpdate(Customer, { id: c.id }, { contactVerification: { email: 'VERIFIED', phone: 'VERIFIED' } });
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', email: 'b@example.com' });
    expect(res.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
    const same = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', phoneNumber: '+4915112345678' });
    expect(same.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
  });

  test('a UMA address in use is 409 UMA_ADDRESS_EXISTS', async () => {
    const { api } = await h.platform();
    const a = await create(api);
    const b = await create(api);
    const res = await api.patch(`/customers/${b.id}`, { customerType: 'INDIVIDUAL', umaAddress: a.umaAddress });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UMA_ADDRESS_EXISTS');
    expect((await stored(b.id)).umaAddress).toBe(b.umaAddress);
  });

  test('a business: businessInfo fields merge into what is stored', async () => {
    const { api } = await h.platform();
    const c = (await api.post('/customers', fullBusiness())).body;
    const res = await api.patch(`/customers/${c.id}`, {
      customerType: 'BUSINESS',
      businessInfo: { doingBusinessAs: 'Acme Payments', purposeOfAccount: 'OTHER', purposeOfAccountOtherDescription: 'Treasury' },
      address: { line1: '2 Market St', postalCode: '94105', country: 'US' },
    });
    expect(res.status).toBe(200);
    expect(res.body.businessInfo).toEqual({
      ...businessInfo(),
      doingBusinessAs: 'Acme Payments',
      purposeOfAccount: 'OTHER',
      purposeOfAccountOtherDescription: 'Treasury',
    });
    expect(res.body.address).toEqual({ line1: '2 Market St', postalCode: '94105', country: 'US' });
    const bad = await api.patch(`/customers/${c.id}`, {
      customerType: 'BUSINESS',
      businessInfo: { taxId: 'NOT-AN-EIN', sourceOfFundsOtherDescription: 'x', naicsCode: 'abc' },
    });
    expect(fieldsOf(bad)).toEqual(['businessInfo.naicsCode:pattern', 'businessInfo.sourceOfFundsOtherDescription:notAllowed', 'businessInfo.taxId:pattern']);
    const moved = await h.platform();
    const foreign = (await moved.api.post('/customers', { customerType: 'BUSINESS', businessInfo: { ...businessInfo(), country: 'DE', taxId: 'DE123456789' } }))
      .body;
    expect(fieldsOf(await moved.api.patch(`/customers/${foreign.id}`, { customerType: 'BUSINESS', businessInfo: { country: 'US' } }))).toEqual([
      'businessInfo.taxId:pattern',
    ]);
    expect((await moved.api.patch(`/customers/${foreign.id}`, { customerType: 'BUSINESS', businessInfo: { country: 'US', taxId: '98-7654321' } })).status).toBe(
      200,
    );
    const back = await api.patch(`/customers/${c.id}`, { customerType: 'BUSINESS', businessInfo: { purposeOfAccount: 'SUPPLIER_PAYMENTS' } });
    expect(back.body.businessInfo).not.toHaveProperty('purposeOfAccountOtherDescription');
  });

  test("a deleted customer, another platform's customer and an unknown id are 404, even with an invalid body", async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const other = await h.platform();
    expect((await other.api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Mallory' })).status).toBe(404);
    expect((await other.api.patch(`/customers/${c.id}`, { email: 'bad' })).status).toBe(404);
    expect((await api.get(`/customers/${c.id}`)).body.fullName).toBeUndefined();
    await api.delete(`/customers/${c.id}`).expect(200);
    const res = await api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Ghost' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('USER_NOT_FOUND');
    expect((await api.patch('/customers/Customer:00000000-0000-4000-8000-000000000000', { customerType: 'INDIVIDUAL' })).status).toBe(404);
  });
});

describe('DELETE /customers/{customerId}', () => {
  test('soft delete: 200 with isDeleted; still readable by id; a repeat is 410 CUSTOMER_DELETED', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const res = await api.delete(`/customers/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...c, isDeleted: true, updatedAt: expect.any(String) });
    expect((await api.get(`/customers/${c.id}`)).body.isDeleted).toBe(true);
    expect((await stored(c.id)).isDeleted).toBe(true);
    const again = await api.delete(`/customers/${c.id}`);
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
  });

  test("a deleted customer's platformCustomerId is free again", async () => {
    const { api } = await h.platform();
    const c = await create(api, { platformCustomerId: 'reused' });
    await api.delete(`/customers/${c.id}`).expect(200);
    const again = await create(api, { platformCustomerId: 'reused' });
    expect(again.id).not.toBe(c.id);
    const both = await api.get('/customers?platformCustomerId=reused&isIncludingDeleted=true');
    expect(both.body.totalCount).toBe(2);
    expect((await api.get('/customers?platformCustomerId=reused')).body.data.map((x: { id: string }) => x.id)).toEqual([again.id]);
  });

  test("another platform's customer or an unknown id is 404, and stays undeleted", async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const other = await h.platform();
    expect((await other.api.delete(`/customers/${c.id}`)).status).toBe(404);
    expect((await stored(c.id)).isDeleted).toBe(false);
    expect((await api.delete('/customers/nope')).status).toBe(404);
  });

  test('two simultaneous deletes: one 200, one 410', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const results = await Promise.all([api.delete(`/customers/${c.id}`), api.delete(`/customers/${c.id}`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
  });
});

describe('OpenAPI document', () => {
  test('customers are discriminated unions on customerType, with named schemas', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const schemas = doc.components.schemas;
    for (const [name, individual, business] of [
      ['Customer', 'IndividualCustomer', 'BusinessCustomer'],
      ['CustomerCreateRequest', 'IndividualCustomerCreateRequest', 'BusinessCustomerCreateRequest'],
      ['CustomerUpdateRequest', 'IndividualCustomerUpdateRequest', 'BusinessCustomerUpdateRequest'],
    ]) {
      expect(schemas[name].oneOf).toEqual([{ $ref: `#/components/schemas/${individual}` }, { $ref: `#/components/schemas/${business}` }]);
      expect(schemas[name].discriminator).toEqual({
        propertyName: 'customerType',
        mapping: { INDIVIDUAL: `#/components/schemas/${individual}`, BUSINESS: `#/components/schemas/${business}` },
      });
    }
    expect(schemas.BusinessCustomerCreateRequest.required).toEqual(expect.arrayContaining(['customerType', 'businessInfo']));
    expect(schemas.BusinessInfo.required).toEqual(expect.arrayContaining(['legalName', 'country', 'incorporatedOn', 'taxId']));
    expect(schemas.IndividualCustomerCreateRequest.properties.identifier.writeOnly).toBe(true);
    expect(schemas.IndividualCustomer.properties).not.toHaveProperty('identifier');
    expect(schemas.IndividualCustomer.properties.kycStatus.$ref).toBe('#/components/schemas/KycStatus');
    expect(schemas.BusinessCustomer.properties.kybStatus.$ref).toBe('#/components/schemas/KybStatus');
    const paths = doc.paths;
    expect(paths['/customers'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CustomerCreateRequest');
    expect(paths['/customers/{customerId}'].patch.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CustomerUpdateRequest');
    expect(paths['/customers/{customerId}'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Customer');
    expect(Object.keys(paths['/customers/{customerId}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(paths['/customers/end-user-terms'].get.operationId).toBe('getEndUserTerms');
    expect(paths['/customers'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'platformCustomerId',
        'customerType',
        'createdAfter',
        'createdBefore',
        'updatedAfter',
        'updatedBefore',
        'region',
        'currency',
        'umaAddress',
        'isIncludingDeleted',
        'limit',
        'cursor',
      ]),
    );
  });
});

describe('creation wires contact verification and account announcements', () => {
  test('an EU customer starts with its contacts PENDING verification', async () => {
    const { api } = await h.platform({ region: 'EU' });
    const c = await create(api, { email: 'eu@example.com', phoneNumber: '+4915112345679' });
    expect(c.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const sent = await api.post(`/customers/${c.id}/verify-email`);
    expect(sent.status).toBe(204);
    const confirmed = await api.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
  });

  test('accounts opened at creation are announced with INTERNAL_ACCOUNT.STATUS_UPDATED', async () => {
    const { api } = await h.platform();
    const c = await create(api);
    const accounts = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`)).body.data as { id: string }[];
    expect(accounts.length).toBeGreaterThan(0);
    await h.receiver.waitFor((hooks) => accounts.every((a) => hooks.some((x) => x.body.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && x.body.data.id === a.id)));
  });
});
