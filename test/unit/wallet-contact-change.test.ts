import { contactChangePayload, contactChangesOf, walletTiedContactChange } from '../../src/contexts/customers/domain/wallet-contact-change';

const current = { email: 'old@example.com', phoneNumber: '+14155550100' };

describe('wallet-tied contact changes (spec §4.4)', () => {
  test('a field sent with the value on file changes nothing', () => {
    expect(contactChangesOf({ email: 'old@example.com', phoneNumber: '+14155550100' }, current)).toEqual([]);
    expect(contactChangesOf({ email: 'new@example.com' }, current)).toEqual([{ field: 'email', credentialType: 'EMAIL_OTP', value: 'new@example.com' }]);
    expect(contactChangesOf({ phoneNumber: '+14155550199' }, { email: null, phoneNumber: null })).toEqual([
      { field: 'phoneNumber', credentialType: 'SMS_OTP', value: '+14155550199' },
    ]);
  });

  test('only a change of a tied channel needs the signature', () => {
    const email = contactChangesOf({ email: 'new@example.com' }, current);
    expect(walletTiedContactChange(email, new Set(['SMS_OTP']))).toEqual({ problems: [] });
    expect(walletTiedContactChange(email, new Set(['EMAIL_OTP']))).toEqual({ change: email[0], problems: [] });
    expect(walletTiedContactChange([], new Set(['EMAIL_OTP', 'SMS_OTP']))).toEqual({ problems: [] });
  });

  test('email and phone together are refused when either is tied, both fields named; untied customers change both at once', () => {
    const both = contactChangesOf({ email: 'new@example.com', phoneNumber: '+14155550199' }, current);
    const refused = walletTiedContactChange(both, new Set(['SMS_OTP']));
    expect(refused.change).toBeUndefined();
    expect(refused.problems.map((p) => [p.field, p.constraint])).toEqual([
      ['email', 'separateContactChange'],
      ['phoneNumber', 'separateContactChange'],
    ]);
    expect(walletTiedContactChange(both, new Set())).toEqual({ problems: [] });
  });

  test('the payload names the customer and the new value, in the reference activity shape', () => {
    const at = new Date('2026-04-08T15:30:00Z');
    const email = JSON.parse(
      contactChangePayload(
        { field: 'email', credentialType: 'EMAIL_OTP', value: 'new@example.com' },
        { walletAccountId: 'InternalAccount:w', customerId: 'Customer:c', at },
      ),
    );
    expect(email).toEqual({
      organizationId: 'InternalAccount:w',
      parameters: { userEmail: 'new@example.com', userId: 'Customer:c' },
      timestampMs: String(at.getTime()),
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
    });
    const phone = JSON.parse(
      contactChangePayload(
        { field: 'phoneNumber', credentialType: 'SMS_OTP', value: '+14155550199' },
        { walletAccountId: 'InternalAccount:w', customerId: 'Customer:c', at },
      ),
    );
    expect(phone).toMatchObject({ parameters: { userId: 'Customer:c', userPhoneNumber: '+14155550199' }, type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER' });
  });
});
