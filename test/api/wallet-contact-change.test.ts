import { Customer } from '../../src/contexts/customers/entities';
import { AuthCredential, SignedRequest } from '../../src/contexts/wallet-auth';
import { newId } from '../../src/domain/ids';
import { Harness } from '../support/harness';
import { newDeviceKey, openTestSession, signedHeaders, type DeviceKey } from '../support/wallet-client';

// PATCH /customers/{id} when the email (phone) feeds OTP credentials of the customer's embedded
// wallet (spec §4.4): 202, then the signed retry changes the customer and every tied credential
// in one transaction.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer of a platform with embedded wallets: its wallet starts with an EMAIL_OTP credential of its email. */
async function walletOwner(api: Api, platformId: string, options: { session?: 'ACTIVE' | 'EXPIRED' | 'NONE'; phone?: boolean } = {}) {
  const email = `jane-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `c-${Math.random()}`,
    fullName: 'Jane Doe',
    email,
    ...(options.phone ? { phoneNumber: '+14155550100' } : {}),
  });
  expect(created.status).toBe(201);
  const customerId = created.body.id as string;
  const wallet = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`)).body.data[0].id as string;
  const em = h.orm.em.fork();
  if (options.phone) await addCredential(platformId, wallet, 'SMS_OTP', '+14155550100');
  const emailCredential = await em.findOneOrFail(AuthCredential, { accountId: wallet, type: 'EMAIL_OTP' });
  let key: DeviceKey | undefined;
  if ((options.session ?? 'ACTIVE') !== 'NONE') {
    const expiresAt = options.session === 'EXPIRED' ? new Date(Date.now() - 1000) : undefined;
    key = (await openTestSession(api, em, { platformId, accountId: wallet }, { credentialId: emailCredential.id, ...(expiresAt ? { expiresAt } : {}) })).key;
  }
  return { customerId, wallet, email, key: key!, emailCredential: emailCredential.id };
}

async function addCredential(platformId: string, accountId: string, type: 'EMAIL_OTP' | 'SMS_OTP', contact: string): Promise<string> {
  const em = h.orm.em.fork();
  const now = new Date();
  const id = newId('AuthMethod');
  em.create(AuthCredential, {
    id,
    platformId,
    accountId,
    type,
    nickname: contact,
    ...(type === 'EMAIL_OTP' ? { email: contact } : { phoneNumber: contact }),
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return id;
}

const credentialOf = (id: string) => h.orm.em.fork().findOneOrFail(AuthCredential, { id });
const customerOf = (id: string) => h.orm.em.fork().findOneOrFail(Customer, { id });
const emailChange = (email: string) => ({ customerType: 'INDIVIDUAL', email });

describe('an email change of a customer whose wallet signs in by email', () => {
  test('202 with a challenge, nothing changed; the signed retry changes the customer and its EMAIL_OTP credential; the request is then used', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const first = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'));
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      organizationId: owner.wallet,
      parameters: { userEmail: 'new@example.com', userId: owner.customerId },
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
    });
    expect((await customerOf(owner.customerId)).email).toBe(owner.email);
    expect((await credentialOf(owner.emailCredential)).email).toBe(owner.email);

    const signed = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first.body));
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ id: owner.customerId, email: 'new@example.com' });
    expect((await api.get(`/customers/${owner.customerId}`)).body.email).toBe('new@example.com');
    expect(await credentialOf(owner.emailCredential)).toMatchObject({ email: 'new@example.com', nickname: 'new@example.com' });
    const replayed = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first.body));
    // The change is made: the same body is now a synchronous no-op (signature headers ignored, rule 5).
    expect(replayed.status).toBe(200);
    expect(await h.orm.em.fork().findOneOrFail(SignedRequest, { id: first.body.requestId })).toMatchObject({ consumedAt: expect.any(Date) });
  });

  test('a phone change with an SMS_OTP credential takes the same way; without one it is synchronous', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id, { phone: true });
    const sms = await h.orm.em.fork().findOneOrFail(AuthCredential, { accountId: owner.wallet, type: 'SMS_OTP' });
    const phone = { customerType: 'INDIVIDUAL', phoneNumber: '+14155550199' };
    const first = await api.patch(`/customers/${owner.customerId}`, phone);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      parameters: { userId: owner.customerId, userPhoneNumber: '+14155550199' },
      type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
    });
    const signed = await api.patch(`/customers/${owner.customerId}`, phone, signedHeaders(owner.key, first.body));
    expect([signed.status, signed.body.phoneNumber]).toEqual([200, '+14155550199']);
    expect(await credentialOf(sms.id)).toMatchObject({ phoneNumber: '+14155550199', nickname: '+14155550199' });

    const noSms = await walletOwner(api, platform.id);
    const sync = await api.patch(`/customers/${noSms.customerId}`, phone);
    expect([sync.status, sync.body.phoneNumber]).toEqual([200, '+14155550199']);
  });

  test('email and phone together are refused (400, both fields), nothing changes; other fields stay synchronous, signature headers ignored', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const both = await api.patch(`/customers/${owner.customerId}`, { customerType: 'INDIVIDUAL', email: 'new@example.com', phoneNumber: '+14155550199' });
    expect(both.status).toBe(400);
    expect(both.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'phoneNumber']);
    expect(await customerOf(owner.customerId)).toMatchObject({ email: owner.email, phoneNumber: null });
    const renamed = await api.patch(
      `/customers/${owner.customerId}`,
      { customerType: 'INDIVIDUAL', fullName: 'Jane Roe', email: owner.email },
      { 'Svc-Wallet-Signature': 'anything', 'Request-Id': 'Request:nothing' },
    );
    expect([renamed.status, renamed.body.fullName]).toEqual([200, 'Jane Roe']);
  });

  test('nobody could sign: 400 AUTH_CREDENTIAL_VERIFICATION_REQUIRED (never verified) or _EXPIRED (sessions ended), no challenge issued', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const never = await walletOwner(api, platform.id, { session: 'NONE' });
    const required = await api.patch(`/customers/${never.customerId}`, emailChange('new@example.com'));
    expect([required.status, required.body.code]).toEqual([400, 'AUTH_CREDENTIAL_VERIFICATION_REQUIRED']);
    const lapsed = await walletOwner(api, platform.id, { session: 'EXPIRED' });
    const expired = await api.patch(`/customers/${lapsed.customerId}`, emailChange('new2@example.com'));
    expect([expired.status, expired.body.code]).toEqual([400, 'AUTH_CREDENTIAL_VERIFICATION_EXPIRED']);
    // (The lapsed wallet's login left its own, used request; no contact change was asked to be signed.)
    expect(await h.orm.em.fork().count(SignedRequest, { accountId: { $in: [never.wallet, lapsed.wallet] }, operation: 'CUSTOMER_CONTACT_UPDATE' })).toBe(0);
  });

  test('an email another EMAIL_OTP credential uses is 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS; a phone, SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id, { phone: true });
    const other = await walletOwner(api, platform.id);
    await addCredential(platform.id, other.wallet, 'SMS_OTP', '+14155550177');
    const taken = await api.patch(`/customers/${owner.customerId}`, emailChange(other.email.toUpperCase()));
    expect([taken.status, taken.body.code]).toEqual([409, 'EMAIL_OTP_EMAIL_ALREADY_EXISTS']);
    const takenPhone = await api.patch(`/customers/${owner.customerId}`, { customerType: 'INDIVIDUAL', phoneNumber: '+14155550177' });
    expect([takenPhone.status, takenPhone.body.code]).toEqual([409, 'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS']);
    // Another platform's credentials are not looked at.
    const elsewhere = await h.platform({ embeddedWalletsSupported: true });
    const stranger = await walletOwner(elsewhere.api, elsewhere.platform.id);
    expect((await api.patch(`/customers/${owner.customerId}`, emailChange(stranger.email))).status).toBe(202);
    expect((await customerOf(owner.customerId)).email).toBe(owner.email);
  });

  test('the credential set changed after the 202: 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED, nothing changes', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const first = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'));
    expect(first.status).toBe(202);
    await h.orm.em.fork().nativeUpdate(AuthCredential, { id: owner.emailCredential }, { revokedAt: new Date() });
    const replacement = await addCredential(platform.id, owner.wallet, 'EMAIL_OTP', owner.email);
    const signed = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first.body));
    expect([signed.status, signed.body.code]).toEqual([409, 'EMAIL_OTP_CREDENTIAL_SET_CHANGED']);
    expect((await customerOf(owner.customerId)).email).toBe(owner.email);
    expect((await credentialOf(replacement)).email).toBe(owner.email);
  });

  test('all or nothing: a tied credential that cannot be updated leaves the customer unchanged and the request unused; once it can, the same retry succeeds', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const first = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'));
    expect(first.status).toBe(202);
    const em = h.orm.em.fork();
    // The credential's row refuses the update (a failing store, simulated by a trigger on that one row).
    await em.execute(
      `create or replace function refuse_credential_update() returns trigger language plpgsql as $$ begin raise exception 'credential store unavailable'; end $$`,
    );
    await em.execute(
      `create trigger refuse_credential_update before update on auth_credentials for each row when (old.id = '${owner.emailCredential}') execute function refuse_credential_update()`,
    );
    try {
      const failed = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first.body));
      expect(failed.status).toBe(500);
      expect((await customerOf(owner.customerId)).email).toBe(owner.email);
      expect((await credentialOf(owner.emailCredential)).email).toBe(owner.email);
      expect(await h.orm.em.fork().findOneOrFail(SignedRequest, { id: first.body.requestId })).toMatchObject({ consumedAt: null });
    } finally {
      await em.execute('drop trigger refuse_credential_update on auth_credentials');
    }
    const signed = await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first.body));
    expect([signed.status, signed.body.email]).toEqual([200, 'new@example.com']);
    expect((await credentialOf(owner.emailCredential)).email).toBe('new@example.com');
  });

  test('bad signed retries are each their 401 and change nothing: wrong key, another wallet’s session, another body, Request-Id alone', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const other = await walletOwner(api, platform.id);
    const first = (await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'))).body;
    const attempts: [string, object, Record<string, string>, string][] = [
      ['wrong key', emailChange('new@example.com'), signedHeaders(newDeviceKey(), first), 'WALLET_SIGNATURE_INVALID'],
      ['another wallet’s session', emailChange('new@example.com'), signedHeaders(other.key, first), 'WALLET_SIGNATURE_INVALID'],
      ['another body', { ...emailChange('new@example.com'), fullName: 'Mallory' }, signedHeaders(owner.key, first), 'WALLET_SIGNATURE_BODY_MISMATCH'],
      ['Request-Id alone', emailChange('new@example.com'), { 'Request-Id': first.requestId }, 'WALLET_SIGNATURE_MISSING'],
    ];
    for (const [name, body, headers, code] of attempts) {
      const res = await api.patch(`/customers/${owner.customerId}`, body, headers);
      expect([name, res.status, res.body.code]).toEqual([name, 401, code]);
    }
    expect(await customerOf(owner.customerId)).toMatchObject({ email: owner.email, fullName: 'Jane Doe' });
    expect((await credentialOf(owner.emailCredential)).email).toBe(owner.email);
  });

  test('tenant isolation: another platform can neither start nor sign the change (404), even with the owner’s signature', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const owner = await walletOwner(api, platform.id);
    const first = (await api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'))).body;
    const intruder = await h.platform({ embeddedWalletsSupported: true });
    expect((await intruder.api.patch(`/customers/${owner.customerId}`, emailChange('mallory@example.com'))).status).toBe(404);
    expect((await intruder.api.patch(`/customers/${owner.customerId}`, emailChange('new@example.com'), signedHeaders(owner.key, first))).status).toBe(404);
    expect((await customerOf(owner.customerId)).email).toBe(owner.email);
    expect(await h.orm.em.fork().findOneOrFail(SignedRequest, { id: first.requestId })).toMatchObject({ consumedAt: null });
  });
});
