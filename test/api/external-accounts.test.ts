import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { assertExternalAccountUsable } from '../../src/contexts/external-accounts/domain/account-usage';
import { DomainError } from '../../src/domain/errors';
import { eurAccount, gbpAccount, ibanOf, individual, usdAccount } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import { eventually } from '../support/eventually';
import { strandedVerifications } from '../../src/contexts/external-accounts/services/stranded-verifications';
import { startStrandedOf } from '../../src/temporal/start-stranded';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];
type FieldErrorJson = { field: string; constraint: { rule: string } };

async function customerOf(api: Api): Promise<string> {
  const res = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Jane Doe' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const rows = (platformId: string) => h.orm.em.fork().count(ExternalAccount, { platformId });
const refusalOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
  return undefined;
};

describe('registering bank accounts', () => {
  test('a EUR IBAN is ACTIVE at once with a MATCHED name check, identifiers in the rail form', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', {
      customerId,
      platformAccountId: 'mine-1',
      ...eurAccount('de89370400440532013000'.toUpperCase()),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^ExternalAccount:/),
      customerId,
      status: 'ACTIVE',
      currency: 'EUR',
      platformAccountId: 'mine-1',
      defaultUmaDepositAccount: false,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'JANE DOE' },
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', paymentRails: ['SEPA', 'SEPA_INSTANT'] },
    });
    const fetched = await api.get(`/customers/external-accounts/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  test.each([
    ['102', 'NOT_MATCHED', undefined],
    ['103', 'PARTIAL_MATCH', 'J. DOE'],
    ['106', 'UNSUPPORTED', undefined],
    ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
    ['999', 'MATCHED', 'JANE DOE'],
  ])('sandbox name check: account number ending %s is %s', async (suffix, status, name) => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...gbpAccount(`12345${suffix}`) });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('ACTIVE');
    expect(res.body.beneficiaryVerificationStatus).toBe(status);
    expect(res.body.beneficiaryVerifiedData?.fullName).toBe(name);
  });

  test('suffix 105: the receiving bank rejects the account, 400 INVALID_BANK_ACCOUNT, nothing stored', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013105')) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_BANK_ACCOUNT');
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'accountInfo.iban' })]);
    expect(await rows(platform.id)).toBe(0);
  });

  test('suffix 104: the name check is PENDING, then resolves on a timer and is announced by webhook', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('12345104') });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING', beneficiaryVerificationStatus: 'PENDING' });
    expect(res.body.beneficiaryVerifiedData).toBeUndefined();
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && w.body.data.id === res.body.id), 30_000);
    const hook = h.receiver.ofType('EXTERNAL_ACCOUNT.STATUS_UPDATED').find((w) => w.body.data.id === res.body.id)!;
    expect(hook.body.data).toMatchObject({
      id: res.body.id,
      customerId,
      status: 'ACTIVE',
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'JANE DOE' },
    });
    const after = await api.get(`/customers/external-accounts/${res.body.id}`);
    expect(after.body).toEqual(hook.body.data);
  });

  test('every invalid field is listed, checksums included; nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'USD',
      platformAccountId: 'x'.repeat(256),
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        routingNumber: '021000022',
        accountNumber: '12ab',
        bankAccountType: 'BROKERAGE',
        beneficiary: { beneficiaryType: 'INDIVIDUAL' },
        extra: 1,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    const fields = (res.body.details.errors as FieldErrorJson[]).map((e) => `${e.field}:${e.constraint.rule}`).sort();
    expect(fields).toEqual(
      [
        'platformAccountId:maxLength',
        'accountInfo:additionalProperties',
        'accountInfo.routingNumber:format',
        'accountInfo.accountNumber:pattern',
        'accountInfo.bankAccountType:enum',
        'accountInfo.beneficiary.fullName:required',
      ].sort(),
    );
    expect(await rows(platform.id)).toBe(0);
  });

  test('the account type decides the currency and the beneficiary is required on bank rails', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const wrongCurrency = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('12345678'), currency: 'EUR' });
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.details.errors).toEqual([
      expect.objectContaining({ field: 'currency', constraint: expect.objectContaining({ rule: 'accountCurrency' }) }),
    ]);
    const { accountInfo } = gbpAccount('12345678');
    const noBeneficiary = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'GBP',
      accountInfo: { ...accountInfo, beneficiary: undefined },
    });
    expect(noBeneficiary.status).toBe(400);
    expect(noBeneficiary.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.beneficiary', constraint: expect.objectContaining({ rule: 'required' }) }),
    ]);
    const unknownType = await api.post('/customers/external-accounts', { customerId, currency: 'GBP', accountInfo: { accountType: 'GBP_WALLET' } });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.accountType', constraint: expect.objectContaining({ rule: 'enum' }) }),
    ]);
    const business = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'GBP',
      accountInfo: { ...accountInfo, beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd' } },
    });
    expect(business.status).toBe(201);
  });

  test('an unknown customer is 404 USER_NOT_FOUND, and another platform’s customer too', async () => {
    const { api } = await h.platform();
    const other = await h.platform();
    const foreign = await customerOf(other.api);
    for (const customerId of ['Customer:00000000-0000-4000-8000-000000000000', foreign]) {
      const res = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('12345678') });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
  });
});

describe('US bank validation', () => {
  test('a new US account is PENDING through its validation window, refused for use until it ends, then ACTIVE', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...usdAccount() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING', accountInfo: { paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] } });
    const stored = await h.orm.em.fork().findOneOrFail(ExternalAccount, { id: res.body.id });
    expect(stored.bankValidation).toBe('PENDING');
    expect(refusalOf(() => assertExternalAccountUsable(stored, { platformRegion: 'US' }))).toBe('BANK_ACCOUNT_VALIDATION_PENDING');
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.data.id === res.body.id), 30_000);
    const after = await h.orm.em.fork().findOneOrFail(ExternalAccount, { id: res.body.id });
    expect(after).toMatchObject({ status: 'ACTIVE', bankValidation: 'PASSED' });
    expect(refusalOf(() => assertExternalAccountUsable(after, { platformRegion: 'US' }))).toBeUndefined();
  });

  test('an account number ending 110 fails validation: INACTIVE, then INVALID_BANK_ACCOUNT on use', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...usdAccount('987654110') });
    expect(res.status).toBe(201);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.data.id === res.body.id), 30_000);
    const hook = h.receiver.received.find((w) => w.body.data.id === res.body.id)!;
    expect(hook.body.data.status).toBe('INACTIVE');
    const after = await h.orm.em.fork().findOneOrFail(ExternalAccount, { id: res.body.id });
    expect(after.bankValidation).toBe('FAILED');
    expect(refusalOf(() => assertExternalAccountUsable(after, { platformRegion: 'US' }))).toBe('INVALID_BANK_ACCOUNT');
  });
});

describe('duplicates and the default UMA deposit account', () => {
  test('the same account twice for one owner is 409 with the first id; another customer may register it', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const first = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('11112222') });
    expect(first.status).toBe(201);
    // Same coordinates, other names and references: still the same account.
    const again = await api.post('/customers/external-accounts', { customerId, platformAccountId: 'other', ...gbpAccount('11112222', 'Someone Else') });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_EXTERNAL_ACCOUNT', details: { existingAccountId: first.body.id } });
    const otherCustomer = await customerOf(api);
    expect((await api.post('/customers/external-accounts', { customerId: otherCustomer, ...gbpAccount('11112222') })).status).toBe(201);
    // After a delete the account can be registered again.
    expect((await api.delete(`/customers/external-accounts/${first.body.id}`)).status).toBe(204);
    expect((await api.post('/customers/external-accounts', { customerId, ...gbpAccount('11112222') })).status).toBe(201);
  });

  test('two simultaneous registrations of one account: one 201, one 409', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const both = await Promise.all([0, 1].map(() => api.post('/customers/external-accounts', { customerId, ...eurAccount() })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await rows(platform.id)).toBe(1);
  });

  test('a new default replaces the previous one, also when two arrive together', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const first = await api.post('/customers/external-accounts', { customerId, defaultUmaDepositAccount: true, ...gbpAccount('20000001') });
    expect(first.body.defaultUmaDepositAccount).toBe(true);
    const racing = await Promise.all(
      ['20000002', '20000003'].map((n) => api.post('/customers/external-accounts', { customerId, defaultUmaDepositAccount: true, ...gbpAccount(n) })),
    );
    expect(racing.map((r) => r.status)).toEqual([201, 201]);
    const list = await api.get(`/customers/external-accounts?customerId=${encodeURIComponent(customerId)}`);
    expect(list.body.data.filter((a: { defaultUmaDepositAccount: boolean }) => a.defaultUmaDepositAccount)).toHaveLength(1);
  });
});

describe('registrations retried with their Idempotency-Key', () => {
  // As if the API had died after the account's commit, before the idempotency store kept the answer.
  const forgetAnswer = (platformId: string, key: string) => h.orm.em.fork().nativeDelete(IdempotencyRecord, { platformId, key });

  test('a registration whose first attempt committed and died before answering is found again: 201, same account, its checks not run twice', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const body = { customerId, ...gbpAccount('12345104') };
    const first = await api.post('/customers/external-accounts', body, { 'Idempotency-Key': 'register-died' });
    expect(first.status).toBe(201);
    const verification = h.temporal.workflow.getHandle(first.body.id);
    const { runId } = await verification.describe();
    await verification.result();
    expect(await forgetAnswer(platform.id, 'register-died')).toBe(1);

    const retried = await api.post('/customers/external-accounts', body, { 'Idempotency-Key': 'register-died' });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ id: first.body.id, customerId, status: 'ACTIVE', beneficiaryVerificationStatus: 'MATCHED' });
    expect(await rows(platform.id)).toBe(1);
    // The finished verification was not started a second time (that would announce the account again).
    expect((await verification.describe()).runId).toBe(runId);
    const announced = await h.orm.em.fork().find(WebhookEvent, { platformId: platform.id, type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED' });
    expect(announced).toHaveLength(1);
  });

  test('another key is another request, refused as a duplicate; another platform may use the same key', async () => {
    const { api, platform } = await h.platform();
    const other = await h.platform();
    const customerId = await customerOf(api);
    const first = await api.post('/customers/external-accounts', { customerId, ...eurAccount() }, { 'Idempotency-Key': 'register-shared' });
    expect(first.status).toBe(201);
    const again = await api.post('/customers/external-accounts', { customerId, ...eurAccount() }, { 'Idempotency-Key': 'register-other' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_EXTERNAL_ACCOUNT', details: { existingAccountId: first.body.id } });
    const elsewhere = await other.api.post(
      '/customers/external-accounts',
      { customerId: await customerOf(other.api), ...eurAccount() },
      { 'Idempotency-Key': 'register-shared' },
    );
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
    expect(await rows(platform.id)).toBe(1);
    expect(await rows(other.platform.id)).toBe(1);
  });

  test('a platform account with the key of an earlier customer account is a registration of its own', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const forCustomer = await api.post('/customers/external-accounts', { customerId, ...eurAccount() }, { 'Idempotency-Key': 'register-owner' });
    expect(await forgetAnswer(platform.id, 'register-owner')).toBe(1);
    const forPlatform = await api.post('/platform/external-accounts', eurAccount(), { 'Idempotency-Key': 'register-owner' });
    expect(forPlatform.status).toBe(201);
    expect(forPlatform.body.id).not.toBe(forCustomer.body.id);
    expect(forPlatform.body.customerId).toBeNull();
  });
});

describe('listing, owners and deletion', () => {
  test('customer and platform accounts live under their own paths; lists filter and page', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const mine = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('30000001') });
    await api.post('/customers/external-accounts', { customerId, ...eurAccount() });
    const own = await api.post('/platform/external-accounts', { ...gbpAccount('30000001'), platformAccountId: 'treasury' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ customerId: null, defaultUmaDepositAccount: false, platformAccountId: 'treasury' });
    // Each path sees only its kind of account.
    expect((await api.get(`/customers/external-accounts/${own.body.id}`)).status).toBe(404);
    expect((await api.get(`/platform/external-accounts/${mine.body.id}`)).status).toBe(404);
    const platformList = await api.get('/platform/external-accounts');
    expect(platformList.body.data.map((a: { id: string }) => a.id)).toEqual([own.body.id]);
    const gbp = await api.get('/customers/external-accounts?currency=GBP');
    expect(gbp.body).toMatchObject({ hasMore: false, totalCount: 1, data: [{ id: mine.body.id }] });
    const paged = await api.get('/customers/external-accounts?limit=1');
    expect(paged.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const rest = await api.get(`/customers/external-accounts?limit=1&cursor=${paged.body.nextCursor}`);
    expect(rest.body.data[0].id).not.toBe(paged.body.data[0].id);
    expect((await api.get('/customers/external-accounts?bankName=x')).status).toBe(400);
    // The platform create request has no customer fields.
    const withCustomer = await api.post('/platform/external-accounts', { customerId, ...gbpAccount('30000002') });
    expect(withCustomer.status).toBe(400);
  });

  test('a deleted account disappears from the API but its row stays for the payments that name it', async () => {
    const { api } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...gbpAccount('40000001') });
    expect((await api.delete(`/customers/external-accounts/${res.body.id}`)).status).toBe(204);
    expect((await api.get(`/customers/external-accounts/${res.body.id}`)).status).toBe(404);
    expect((await api.delete(`/customers/external-accounts/${res.body.id}`)).status).toBe(404);
    expect((await api.get('/customers/external-accounts')).body.totalCount).toBe(0);
    const row = await h.orm.em.fork().findOneOrFail(ExternalAccount, { id: res.body.id });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(refusalOf(() => assertExternalAccountUsable(row, { platformRegion: 'US' }))).toBe('INVALID_INPUT');
  });

  test('a platform never sees, changes or verifies another platform’s accounts', async () => {
    const owner = await h.platform();
    const customerId = await customerOf(owner.api);
    const theirs = await owner.api.post('/customers/external-accounts', { customerId, ...gbpAccount('50000001') });
    const theirOwn = await owner.api.post('/platform/external-accounts', gbpAccount('50000002'));
    const { api } = await h.platform();
    for (const [base, id] of [
      ['/customers/external-accounts', theirs.body.id],
      ['/platform/external-accounts', theirOwn.body.id],
    ]) {
      expect((await api.get(`${base}/${id}`)).status).toBe(404);
      expect((await api.delete(`${base}/${id}`)).status).toBe(404);
      expect((await api.post(`${base}/${id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(404);
      expect((await api.post(`${base}/${id}/verify`, { signature: '0x00' })).status).toBe(404);
      expect((await api.get(base)).body.totalCount).toBe(0);
    }
    expect((await api.get(`/customers/external-accounts?customerId=${encodeURIComponent(customerId)}`)).body.totalCount).toBe(0);
    expect((await owner.api.get(`/customers/external-accounts/${theirs.body.id}`)).status).toBe(200);
  });
});

describe('other rails', () => {
  test('mobile money, PIX, CLABE, Lightning and SWIFT variants', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'EUR', 'KES', 'BRL', 'MXN'] });
    const customerId = await customerOf(api);
    const create = (body: Record<string, unknown>) => api.post('/customers/external-accounts', { customerId, ...body });
    const kes = await create({
      currency: 'KES',
      accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: individual() },
    });
    expect(kes.status).toBe(201);
    expect(kes.body.accountInfo.paymentRails).toEqual(['MOBILE_MONEY']);
    const badKes = await create({
      currency: 'KES',
      accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+255712345678', provider: 'M-Pesa', beneficiary: individual() },
    });
    expect(badKes.status).toBe(400);
    const pix = await create({
      currency: 'BRL',
      accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: 'Jane@Example.com', pixKeyType: 'EMAIL', taxId: '52998224725', beneficiary: individual() },
    });
    expect(pix.status).toBe(201);
    expect(pix.body.accountInfo.pixKey).toBe('jane@example.com');
    const badTax = await create({
      currency: 'BRL',
      accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: '52998224724', pixKeyType: 'CPF', taxId: '52998224724', beneficiary: individual() },
    });
    expect(badTax.status).toBe(400);
    expect((badTax.body.details.errors as FieldErrorJson[]).map((e) => e.field).sort()).toEqual(['accountInfo.pixKey', 'accountInfo.taxId']);
    const clabe = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', beneficiary: individual() } });
    expect(clabe.status).toBe(201);
    const badClabe = await create({
      currency: 'MXN',
      accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777772', beneficiary: individual() },
    });
    expect(badClabe.status).toBe(400);
    expect(badClabe.body.details.errors[0].field).toBe('accountInfo.clabeNumber');
    const swiftWithout = await create({
      currency: 'USD',
      accountInfo: { accountType: 'SWIFT_ACCOUNT', country: 'JP', swiftCode: 'BOTKJPJT', bankName: 'MUFG Bank', beneficiary: individual() },
    });
    expect(swiftWithout.status).toBe(400);
    expect(swiftWithout.body.details.errors[0]).toMatchObject({ field: 'accountInfo.accountNumber', constraint: { rule: 'required' } });
    const swift = await create({
      currency: 'USD',
      accountInfo: {
        accountType: 'SWIFT_ACCOUNT',
        country: 'JP',
        swiftCode: 'BOTKJPJT',
        bankName: 'MUFG Bank',
        accountNumber: '1234567',
        beneficiary: individual(),
      },
    });
    expect(swift.status).toBe(201);
    expect(swift.body.accountInfo.paymentRails).toEqual(['SWIFT']);
  });
});

describe('recovery', () => {
  test('a check whose workflow never started is found once overdue and completed', async () => {
    const { api, platform } = await h.platform();
    const customerId = await customerOf(api);
    const res = await api.post('/customers/external-accounts', { customerId, ...usdAccount('555444333') });
    // As if the API had died between the commit and the workflow start: a fresh row, overdue.
    const em = h.orm.em.fork();
    const strandedId = 'ExternalAccount:00000000-0000-4000-8000-' + Date.now().toString().padStart(12, '0').slice(-12);
    const original = await em.findOneOrFail(ExternalAccount, { id: res.body.id });
    await em.insert(ExternalAccount, {
      ...original,
      id: strandedId,
      duplicateKey: `${original.duplicateKey}/stranded`,
      bankValidationDueAt: new Date(Date.now() - 120_000),
    });
    const started = await startStrandedOf(h.orm, h.temporal, strandedVerifications, { taskQueue: h.taskQueue, platformId: platform.id });
    expect(started).toContain(strandedId);
    expect(started).not.toContain(res.body.id);
    const done = await eventually(
      () => h.orm.em.fork().findOneOrFail(ExternalAccount, { id: strandedId }),
      (a) => a.bankValidation !== 'PENDING',
      20_000,
    );
    expect(done).toMatchObject({ status: 'ACTIVE', bankValidation: 'PASSED', platformId: platform.id });
  });
});
