import { ContactVerificationCode, Customer } from '../../src/contexts/customers/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import type { Region } from '../../src/contexts/platforms/entities/Platform';
import { hashContactCode } from '../../src/contexts/customers/domain/contact-verification';
import type { ContactCodeSender } from '../../src/contexts/customers/services/contact-verification';
import { applyContactVerificationRules } from '../../src/contexts/customers/services/contact-verification';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import request from 'supertest';
import { Api, BASE, Harness } from '../support/harness';
import { seedCustomer } from '../support/onboarding-seed';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function euCustomer(over: Parameters<typeof seedCustomer>[2] = {}, region: Region = 'EU') {
  const p = await h.platform({ region });
  const { customer } = await seedCustomer(h, p.platform.id, over);
  return { ...p, customerId: customer.id };
}

async function codeRow(customerId: string, channel: 'email' | 'phone') {
  return h.orm.em.fork().findOne(ContactVerificationCode, { customerId, channel });
}

async function stateOf(customerId: string) {
  return (await h.orm.em.fork().findOneOrFail(Customer, { id: customerId })).contactVerification;
}

async function productionApi(platformId: string) {
  const prod = await createToken(h.orm.em.fork(), h.masterKey, platformId, 'PRODUCTION');
  return new Api(h.app, `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`);
}

function expectCodeError(res: { status: number; body: Record<string, unknown> }, constraint: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({
    code: 'INVALID_INPUT',
    details: { errors: [{ field: 'code', constraint: { rule: constraint }, message: expect.any(String) }] },
  });
}

describe('state at creation', () => {
  test('EU customers start with every contact on file PENDING, shown on the customer', async () => {
    const { api, customerId } = await euCustomer();
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const got = await api.get(`/customers/${customerId}`);
    expect(got.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  test('only the contacts present are listed', async () => {
    const { customerId } = await euCustomer({ phoneNumber: null });
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING' });
  });

  test('US customers have no verification object', async () => {
    const { api, platform } = await h.platform({ region: 'US' });
    const { customer } = await seedCustomer(h, platform.id);
    expect(customer.contactVerification).toBeNull();
    expect((await api.get(`/customers/${customer.id}`)).body).not.toHaveProperty('contactVerification');
  });
});

describe('email verification in the sandbox', () => {
  test('send, then confirm with 123456: VERIFIED, code used up, stored only as a hash', async () => {
    const { api, customerId } = await euCustomer();
    const sent = await api.post(`/customers/${customerId}/verify-email`);
    expect(sent.status).toBe(204);
    expect(sent.text).toBe('');

    const row = (await codeRow(customerId, 'email'))!;
    expect(row.codeHash).not.toContain('123456');
    expect(row.codeHash).toBe(hashContactCode(h.masterKey, row.id, '123456'));
    expect(row.attempts).toBe(0);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60 * 1000);

    const confirmed = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: customerId, contactVerification: { email: 'VERIFIED', phone: 'PENDING' } });
    expect(await stateOf(customerId)).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
    expect((await codeRow(customerId, 'email'))!.consumedAt).toBeInstanceOf(Date);
    expect((await api.get(`/customers/${customerId}`)).body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
  });

  test('a used code is not accepted again: the email is already verified (409), and so is a resend', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    expect((await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' })).status).toBe(200);
    const again = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', reason: 'The email address is already verified' });
    expect((await api.post(`/customers/${customerId}/verify-email`)).status).toBe(409);
  });

  test('a wrong code is refused with the attempts left and changes nothing but the count', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    const res = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '654321' });
    expectCodeError(res, 'invalid');
    expect(res.body.reason).toBe('The verification code is not correct');
    expect(res.body.details.errors[0].message).toBe('the code is not correct; 4 attempts left');
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect((await codeRow(customerId, 'email'))!.attempts).toBe(1);
    // The right code still works afterwards.
    expect((await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' })).status).toBe(200);
  });

  test('five wrong attempts burn the code; even the right one is refused until a resend', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    for (let i = 1; i <= 5; i++) {
      const res = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '000000' });
      expectCodeError(res, 'invalid');
      if (i === 5) expect(res.body.details.errors[0].message).toContain('withdrawn');
    }
    const burned = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' });
    expectCodeError(burned, 'attempts_exceeded');
    expect(burned.body.reason).toBe('Too many wrong attempts for this verification code');
    expect((await codeRow(customerId, 'email'))!.attempts).toBe(5);

    expect((await api.post(`/customers/${customerId}/verify-email`)).status).toBe(204);
    expect((await codeRow(customerId, 'email'))!.attempts).toBe(0);
    expect((await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' })).status).toBe(200);
  });

  test('concurrent wrong attempts never get more than five tries', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post(`/customers/${customerId}/verify-email/confirm`, { code: '111111' })));
    const constraints = results.map((r) => r.body.details.errors[0].constraint.rule).sort();
    expect(constraints).toEqual(['attempts_exceeded', 'attempts_exceeded', 'attempts_exceeded', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect((await codeRow(customerId, 'email'))!.attempts).toBe(5);
  });

  test('an expired code is refused with its own reason, even the right one', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    await h.orm.em.fork().nativeUpdate(ContactVerificationCode, { customerId, channel: 'email' }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' });
    expectCodeError(res, 'expired');
    expect(res.body.reason).toBe('The verification code has expired');
    expect(res.body.details.errors[0].message).toContain('POST /customers/{customerId}/verify-email');
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  test('confirming before any code was sent is refused', async () => {
    const { api, customerId } = await euCustomer();
    const res = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' });
    expectCodeError(res, 'not_requested');
    expect(res.body.reason).toBe('No verification code is pending');
  });

  test('malformed or missing codes are input errors and do not count as attempts', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    const cases: [unknown, string][] = [
      [{ code: '12345' }, 'pattern'],
      [{ code: '1234567' }, 'pattern'],
      [{ code: 'abcdef' }, 'pattern'],
      [{ code: 123456 }, 'type'],
      [{}, 'required'],
    ];
    for (const [body, constraint] of cases) {
      const res = await api.post(`/customers/${customerId}/verify-email/confirm`, body);
      expectCodeError(res, constraint);
    }
    expect((await codeRow(customerId, 'email'))!.attempts).toBe(0);
  });

  test('a customer without an email cannot verify one', async () => {
    const { api, customerId } = await euCustomer({ email: null });
    for (const path of ['verify-email', 'verify-email/confirm']) {
      const res = await api.post(`/customers/${customerId}/${path}`, { code: '123456' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'MISSING_MANDATORY_USER_INFO',
        details: { errors: [{ field: 'email', constraint: expect.objectContaining({ rule: 'required' }) }] },
      });
    }
    expect(await codeRow(customerId, 'email')).toBeNull();
  });
});

describe('phone verification', () => {
  test('send and confirm mark the phone VERIFIED independently of the email', async () => {
    const { api, customerId } = await euCustomer({}, 'UK');
    expect((await api.post(`/customers/${customerId}/verify-phone`)).status).toBe(204);
    const wrong = await api.post(`/customers/${customerId}/verify-phone/confirm`, { code: '999999' });
    expectCodeError(wrong, 'invalid');
    const res = await api.post(`/customers/${customerId}/verify-phone/confirm`, { code: '123456' });
    expect(res.status).toBe(200);
    expect(res.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
    expect((await api.post(`/customers/${customerId}/verify-phone/confirm`, { code: '123456' })).status).toBe(409);
    // The email still needs its own code.
    expectCodeError(await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' }), 'not_requested');
  });

  test('a customer without a phone number cannot verify one', async () => {
    const { api, customerId } = await euCustomer({ phoneNumber: null });
    const res = await api.post(`/customers/${customerId}/verify-phone`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'MISSING_MANDATORY_USER_INFO',
      details: { errors: [{ field: 'phoneNumber', constraint: expect.objectContaining({ rule: 'required' }) }] },
    });
  });
});

describe('outside the sandbox', () => {
  test('a random code is delivered; resending replaces it; only a keyed hash is stored', async () => {
    const { platform, customerId } = await euCustomer();
    const api = await productionApi(platform.id);
    const sent: Parameters<ContactCodeSender>[0][] = [];
    h.deps.contactCodeSender = async (m) => {
      sent.push(m);
    };
    try {
      expect((await api.post(`/customers/${customerId}/verify-email`)).status).toBe(204);
      expect((await api.post(`/customers/${customerId}/verify-email`)).status).toBe(204);
      expect(sent).toHaveLength(2);
      const customer = await h.orm.em.fork().findOneOrFail(Customer, { id: customerId });
      for (const m of sent) expect(m).toMatchObject({ channel: 'email', to: customer.email, customerId, code: expect.stringMatching(/^\d{6}$/) });
      const [first, second] = sent.map((m) => m.code);

      const rows = await h.orm.em.fork().find(ContactVerificationCode, { customerId });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.codeHash).toBe(hashContactCode(h.masterKey, rows[0]!.id, second!));
      expect(rows[0]!.codeHash).not.toContain(second!);

      // 123456 is a sandbox value only; the replaced code is dead.
      if (second !== '123456') expectCodeError(await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' }), 'invalid');
      if (first !== second) expectCodeError(await api.post(`/customers/${customerId}/verify-email/confirm`, { code: first }), 'invalid');
      const ok = await api.post(`/customers/${customerId}/verify-email/confirm`, { code: second });
      expect(ok.status).toBe(200);
      expect(ok.body.contactVerification.email).toBe('VERIFIED');
    } finally {
      delete h.deps.contactCodeSender;
    }
  });

  test('a delivery failure is a 500 that does not leak the code', async () => {
    const { platform, customerId } = await euCustomer();
    const api = await productionApi(platform.id);
    let code = '';
    h.deps.contactCodeSender = async (m) => {
      code = m.code;
      throw new Error(`provider rejected message containing ${m.code}`);
    };
    try {
      const res = await api.post(`/customers/${customerId}/verify-email`);
      expect(res.status).toBe(500);
      expect(res.body.reason).toBe('The verification code could not be delivered; request a new one');
      expect(res.text).not.toContain(code);
      expect(await codeRow(customerId, 'email')).toBeNull();
    } finally {
      delete h.deps.contactCodeSender;
    }
  });

  // A server without a delivery provider cannot send codes: that is the operator's to configure,
  // not an internal error, so it answers 501 NOT_IMPLEMENTED (declared in the OpenAPI document).
  test.each([
    ['email', 'email'],
    ['phone', 'SMS'],
  ] as const)('without a %s delivery provider: 501 NOT_IMPLEMENTED, nothing stored, declared in the OpenAPI document', async (channel, noun) => {
    const { platform, customerId } = await euCustomer();
    const api = await productionApi(platform.id);
    const res = await api.post(`/customers/${customerId}/verify-${channel}`);
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ code: 'NOT_IMPLEMENTED', details: { channel, delivery: 'NOT_CONFIGURED' } });
    expect(res.body.reason).toContain(`No ${noun} delivery is configured`);
    expect(await codeRow(customerId, channel)).toBeNull();

    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const responses = doc.paths[`/customers/{customerId}/verify-${channel}`].post.responses;
    expect(responses['501'].description).toContain('NOT_IMPLEMENTED');
    expect(responses['500'].description).not.toMatch(/delivery/i);
  });
});

describe('contact changes', () => {
  test('a replaced email goes back to PENDING and its outstanding code is withdrawn', async () => {
    const { api, platform, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-phone`);
    await api.post(`/customers/${customerId}/verify-phone/confirm`, { code: '123456' });
    await api.post(`/customers/${customerId}/verify-email`);

    const em = h.orm.em.fork();
    const customer = await em.findOneOrFail(Customer, { id: customerId });
    customer.email = 'new.address@example.com';
    await applyContactVerificationRules(em, await em.findOneOrFail(Platform, { id: platform.id }), customer, { changed: ['email'] });

    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
    expectCodeError(await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' }), 'not_requested');
  });

  test('a code sent to an earlier address is not valid for the new one', async () => {
    const { api, customerId } = await euCustomer();
    await api.post(`/customers/${customerId}/verify-email`);
    await h.orm.em.fork().nativeUpdate(Customer, { id: customerId }, { email: 'other@example.com' });
    expectCodeError(await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' }), 'not_requested');
  });

  test('an email added after creation can be verified', async () => {
    const { api, customerId } = await euCustomer({ email: null });
    await h.orm.em.fork().nativeUpdate(Customer, { id: customerId }, { email: 'late@example.com' });
    expect((await api.post(`/customers/${customerId}/verify-email`)).status).toBe(204);
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect((await api.post(`/customers/${customerId}/verify-email/confirm`, { code: '123456' })).body.contactVerification).toEqual({
      email: 'VERIFIED',
      phone: 'PENDING',
    });
  });
});

describe('customers whose provider does not verify contacts', () => {
  test.each(['US', 'LATAM', 'APAC'] as const)('%s: 409 on every endpoint, nothing stored', async (region) => {
    const { api, platform } = await h.platform({ region });
    const { customer } = await seedCustomer(h, platform.id);
    for (const [path, body] of [
      ['verify-email', undefined],
      ['verify-email/confirm', { code: '123456' }],
      ['verify-phone', undefined],
      ['verify-phone/confirm', { code: '123456' }],
    ] as const) {
      const res = await api.post(`/customers/${customer.id}/${path}`, body);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT', reason: expect.stringContaining('Contact verification is not required') });
    }
    expect(await h.orm.em.fork().count(ContactVerificationCode, { customerId: customer.id })).toBe(0);
    expect(await stateOf(customer.id)).toBeNull();
  });
});

describe('platform isolation', () => {
  test("another platform's customer is 404 on every endpoint and untouched", async () => {
    const { customerId } = await euCustomer();
    const intruder = await h.platform({ region: 'EU' });
    for (const [path, body] of [
      ['verify-email', undefined],
      ['verify-email/confirm', { code: '123456' }],
      ['verify-phone', undefined],
      ['verify-phone/confirm', { code: '123456' }],
    ] as const) {
      const res = await intruder.api.post(`/customers/${customerId}/${path}`, body);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
    expect(await h.orm.em.fork().count(ContactVerificationCode, { customerId })).toBe(0);
    expect(await stateOf(customerId)).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  test('a deleted customer cannot verify contacts', async () => {
    const { api, customerId } = await euCustomer();
    await h.orm.em.fork().nativeUpdate(Customer, { id: customerId }, { isDeleted: true });
    const res = await api.post(`/customers/${customerId}/verify-email`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', reason: 'The customer is deleted' });
  });

  test('an unknown customer is 404', async () => {
    const { api } = await h.platform({ region: 'EU' });
    const res = await api.post('/customers/Customer:00000000-0000-4000-8000-000000000000/verify-email');
    expect(res.status).toBe(404);
  });

  test('without credentials: 401', async () => {
    const { customerId } = await euCustomer();
    const res = await new Api(h.app, 'Basic bm9ib2R5Om5vdGhpbmc=').post(`/customers/${customerId}/verify-email`);
    expect(res.status).toBe(401);
  });
});

describe("the customer's region decides", () => {
  test('an EU-region customer of a US platform verifies contacts; a US-region customer of an EU platform does not', async () => {
    const us = await h.platform({ region: 'US' });
    const euCustomer = await seedCustomer(h, us.platform.id, { regionCode: 'EU', email: 'eu-customer@example.com', phoneNumber: null });
    expect(euCustomer.customer.contactVerification).toEqual({ email: 'PENDING' });
    expect((await us.api.post(`/customers/${euCustomer.customer.id}/verify-email`)).status).toBe(204);

    const eu = await h.platform({ region: 'EU' });
    const usCustomer = await seedCustomer(h, eu.platform.id, { regionCode: 'US', email: 'us-customer@example.com', phoneNumber: null });
    expect(usCustomer.customer.contactVerification ?? null).toBeNull();
    const refused = await eu.api.post(`/customers/${usCustomer.customer.id}/verify-email`);
    expect(refused.status).toBe(409);
  });
});
