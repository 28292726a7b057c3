import { BeneficialOwner } from '../../src/contexts/customers/entities';
import { decrypt } from '../../src/security/secrets';
import { Harness } from '../support/harness';
import { businessFields, individualFields, insertCustomer, ownerBody } from '../support/onboarding-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function business(platformId: string, registrationNumber = 'REG-003', over = {}) {
  return insertCustomer(h.orm, h.masterKey, platformId, businessFields(registrationNumber, over));
}
const countOwners = (customerId: string) => h.orm.em.fork().count(BeneficialOwner, { customerId });

describe('POST /beneficial-owners', () => {
  test('adds an owner to a business: 201, the identifier sealed and never returned', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const res = await api.post('/beneficial-owners', ownerBody(biz.id, {}, { middleName: 'Marie', countryOfIssuance: undefined }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: biz.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 60,
      personalInfo: {
        firstName: 'Jane',
        middleName: 'Marie',
        lastName: 'Smith',
        birthDate: '1978-06-15',
        nationality: 'US',
        email: 'jane@example.com',
        phoneNumber: '+14155550192',
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
        idType: 'SSN',
        countryOfIssuance: 'US',
      },
      kycStatus: 'UNVERIFIED',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('123-45-6789');
    const stored = await h.orm.em.fork().findOneOrFail(BeneficialOwner, { id: res.body.id });
    expect(JSON.stringify(stored.personalInfo)).not.toContain('123-45-6789');
    expect(stored.identifierEncrypted).not.toContain('123-45-6789');
    expect(decrypt(h.masterKey, stored.identifierEncrypted!)).toBe('123-45-6789');
  });

  test('a non-business customer is a 400 field error on customerId; nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const person = await insertCustomer(h.orm, h.masterKey, platform.id, individualFields('Ada Lovelace'));
    const res = await api.post('/beneficial-owners', ownerBody(person.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'customerId', constraint: expect.objectContaining({ rule: 'businessCustomer' }), message: expect.any(String) }] },
    });
    expect(await countOwners(person.id)).toBe(0);
  });

  test("an unknown customer, another platform's and a deleted one are 404", async () => {
    const { api } = await h.platform();
    const other = await h.platform();
    const foreign = await business(other.platform.id);
    const mine = await h.platform();
    const deleted = await business(mine.platform.id, 'REG-003', { isDeleted: true });
    expect((await api.post('/beneficial-owners', ownerBody('Customer:00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    const res = await api.post('/beneficial-owners', ownerBody(foreign.id));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('USER_NOT_FOUND');
    expect(await countOwners(foreign.id)).toBe(0);
    expect((await mine.api.post('/beneficial-owners', ownerBody(deleted.id))).status).toBe(404);
  });

  test('every invalid field is reported at once and nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const res = await api.post('/beneficial-owners', {
      customerId: biz.id,
      roles: ['UBO', 'OWNER'],
      ownershipPercentage: 50.5,
      personalInfo: {
        firstName: '',
        lastName: 'Smith',
        birthDate: '2999-01-01',
        nationality: 'XX',
        email: 'not-an-email',
        phoneNumber: '0044 20 7946 0958',
        address: { line1: '1 Main St', country: 'USA' },
        idType: 'SSN',
        identifier: '123456789',
        countryOfIssuance: 'MX',
      },
    });
    expect(res.status).toBe(400);
    const found = res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort();
    expect(found).toEqual(
      [
        'ownershipPercentage:integer',
        'personalInfo.address.country:iso3166-1-alpha-2',
        'personalInfo.address.postalCode:required',
        'personalInfo.birthDate:past',
        'personalInfo.countryOfIssuance:enum',
        'personalInfo.email:email',
        'personalInfo.firstName:minLength',
        'personalInfo.identifier:pattern',
        'personalInfo.nationality:iso3166-1-alpha-2',
        'personalInfo.phoneNumber:pattern',
        'roles.1:enum',
      ].sort(),
    );
    expect(await countOwners(biz.id)).toBe(0);
  });

  test('rules that need stored data are reported together with the schema errors', async () => {
    const { api, platform } = await h.platform();
    const person = await insertCustomer(h.orm, h.masterKey, platform.id, individualFields('Ada Lovelace'));
    const notBusiness = await api.post('/beneficial-owners', ownerBody(person.id, {}, { email: 'not-an-email' }));
    expect(notBusiness.status).toBe(400);
    expect(notBusiness.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'customerId:businessCustomer',
      'personalInfo.email:email',
    ]);
    const biz = await business(platform.id);
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 80 }))).status).toBe(201);
    const tooMuch = await api.post(
      '/beneficial-owners',
      ownerBody(biz.id, { ownershipPercentage: 30, roles: ['OWNER'] }, { lastName: 'Other', identifier: '123456789' }),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'ownershipPercentage:maximum',
      'personalInfo.identifier:pattern',
      'roles.0:enum',
    ]);
    expect(await countOwners(biz.id)).toBe(1);
    expect(await countOwners(person.id)).toBe(0);
  });

  test('identity rules: SSN format, issuing country, SSN/ITIN only for US persons, EIN never', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ identifier: '123456789' }, ['personalInfo.identifier:pattern']],
      [{ idType: 'ITIN', identifier: '123-45-6789' }, ['personalInfo.identifier:pattern']],
      [{ countryOfIssuance: 'MX' }, ['personalInfo.countryOfIssuance:enum']],
      [{ idType: 'NON_US_TAX_ID', identifier: 'X-1' }, ['personalInfo.idType:usTaxId']],
      [{ idType: 'EIN', identifier: '12-3456789' }, ['personalInfo.idType:enum']],
      [{ identifier: 'x'.repeat(101) }, ['personalInfo.identifier:maxLength', 'personalInfo.identifier:pattern']],
    ];
    for (const [info, expected] of cases) {
      const res = await api.post('/beneficial-owners', ownerBody(biz.id, {}, info));
      expect(res.status).toBe(400);
      expect(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual(expected);
    }
    // A non-US person may use a non-US tax id.
    const foreign = await api.post(
      '/beneficial-owners',
      ownerBody(
        biz.id,
        {},
        {
          nationality: 'DE',
          address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
          idType: 'NON_US_TAX_ID',
          identifier: 'DE-1',
        },
      ),
    );
    expect(foreign.status).toBe(201);
    expect(await countOwners(biz.id)).toBe(1);
  });

  test('required fields and unknown fields', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const res = await api.post('/beneficial-owners', { customerId: biz.id, personalInfo: { firstName: 'A' }, extra: 1 });
    expect(res.status).toBe(400);
    const found = res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'roles:required',
        'ownershipPercentage:required',
        'personalInfo.lastName:required',
        'personalInfo.birthDate:required',
        'personalInfo.nationality:required',
        'personalInfo.address:required',
        'personalInfo.idType:required',
        'personalInfo.identifier:required',
        'body:additionalProperties',
      ]),
    );
  });

  test("the owners' shares may not add up to more than 100 %", async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 70 }))).status).toBe(201);
    const res = await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 31 }, { lastName: 'Other' }));
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([
      expect.objectContaining({ field: 'ownershipPercentage', constraint: expect.objectContaining({ rule: 'maximum' }) }),
    ]);
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 30 }, { lastName: 'Other' }))).status).toBe(201);
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 101 }))).body.details.errors[0]).toMatchObject({
      field: 'ownershipPercentage',
      constraint: expect.objectContaining({ rule: 'maximum' }),
    });
  });

  test('an owner added after the business was decided is KYC-resolved at once by lastName', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id, 'REG-123', { kycStatus: 'APPROVED' });
    const shares = { ownershipPercentage: 10 };
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, shares, { lastName: 'Smith 001' }))).body.kycStatus).toBe('PENDING');
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, shares, { lastName: 'Smith 002' }))).body.kycStatus).toBe('REJECTED');
    expect((await api.post('/beneficial-owners', ownerBody(biz.id, shares, { lastName: 'Smith' }))).body.kycStatus).toBe('APPROVED');
  });
});

describe('GET /beneficial-owners', () => {
  test('customerId is required', async () => {
    const { api } = await h.platform();
    const res = await api.get('/beneficial-owners');
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'customerId', constraint: expect.objectContaining({ rule: 'required' }) })]);
  });

  test("a cursor list of one business's owners, newest first; other businesses' owners are not in it", async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const otherBiz = await business(platform.id);
    const ids: string[] = [];
    for (const lastName of ['A', 'B', 'C'])
      ids.push((await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 20 }, { lastName }))).body.id);
    await api.post('/beneficial-owners', ownerBody(otherBiz.id));
    const first = await api.get(`/beneficial-owners?customerId=${encodeURIComponent(biz.id)}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    expect(first.body.data.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    const second = await api.get(`/beneficial-owners?customerId=${encodeURIComponent(biz.id)}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.body.nextCursor).toBeUndefined();
    expect(second.body.data.map((o: { id: string }) => o.id)).toEqual([ids[0]]);
    expect(JSON.stringify([first.body, second.body])).not.toContain('123-45-6789');
  });

  test("another platform's business lists nothing", async () => {
    const owner = await h.platform();
    const biz = await business(owner.platform.id);
    await owner.api.post('/beneficial-owners', ownerBody(biz.id));
    const intruder = await h.platform();
    const res = await intruder.api.get(`/beneficial-owners?customerId=${encodeURIComponent(biz.id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });
});

describe('GET and PATCH /beneficial-owners/{id}', () => {
  test('fetches one owner; unknown and foreign ids are 404', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const created = (await api.post('/beneficial-owners', ownerBody(biz.id))).body;
    expect((await api.get(`/beneficial-owners/${created.id}`)).body).toEqual(created);
    expect((await api.get('/beneficial-owners/BeneficialOwner:00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const intruder = await h.platform();
    expect((await intruder.api.get(`/beneficial-owners/${created.id}`)).status).toBe(404);
    expect((await intruder.api.patch(`/beneficial-owners/${created.id}`, { ownershipPercentage: 1 })).status).toBe(404);
    expect((await api.get(`/beneficial-owners/${created.id}`)).body.ownershipPercentage).toBe(60);
  });

  test('changes only what is sent; personalInfo merges; a new identifier is sealed', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const created = (await api.post('/beneficial-owners', ownerBody(biz.id))).body;
    const res = await api.patch(`/beneficial-owners/${created.id}`, {
      roles: ['CONTROL_PERSON'],
      personalInfo: { lastName: 'Jones', identifier: '987-65-4321' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ roles: ['CONTROL_PERSON'], ownershipPercentage: 60, personalInfo: { ...created.personalInfo, lastName: 'Jones' } });
    expect(res.body.personalInfo.identifier).toBeUndefined();
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const stored = await h.orm.em.fork().findOneOrFail(BeneficialOwner, { id: created.id });
    expect(decrypt(h.masterKey, stored.identifierEncrypted!)).toBe('987-65-4321');
  });

  test('invalid changes are refused with every problem, and change nothing', async () => {
    const { api, platform } = await h.platform();
    const biz = await business(platform.id);
    const created = (await api.post('/beneficial-owners', ownerBody(biz.id))).body;
    await api.post('/beneficial-owners', ownerBody(biz.id, { ownershipPercentage: 30 }, { lastName: 'Other' }));
    const res = await api.patch(`/beneficial-owners/${created.id}`, { ownershipPercentage: 80, personalInfo: { idType: 'ITIN', phoneNumber: '12345' } });
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'ownershipPercentage:maximum',
      'personalInfo.identifier:required',
      'personalInfo.phoneNumber:pattern',
    ]);
    // A malformed identifier is judged against the stored idType, together with the schema's errors.
    const res1 = await api.patch(`/beneficial-owners/${created.id}`, { personalInfo: { identifier: '123456789', email: 'nope' } });
    expect(res1.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'personalInfo.email:email',
      'personalInfo.identifier:pattern',
    ]);
    const res2 = await api.patch(`/beneficial-owners/${created.id}`, { ownershipPercentage: 80, personalInfo: { idType: 'NON_US_TAX_ID' } });
    expect(res2.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'ownershipPercentage:maximum',
      'personalInfo.idType:usTaxId',
      'personalInfo.identifier:required',
    ]);
    const res3 = await api.patch(`/beneficial-owners/${created.id}`, { customerId: biz.id });
    expect(res3.status).toBe(400);
    expect((await api.get(`/beneficial-owners/${created.id}`)).body).toEqual(created);
  });
});
