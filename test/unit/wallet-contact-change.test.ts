import { contactChangeActivity, contactChangesOf, walletTiedContactChange } from '../../src/contexts/customers/domain/wallet-contact-change';

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
    expect(walletTiedContactChange(email, new Set(['SMS_OTP']))).toBeUndefined();
    expect(walletTiedContactChange(email, new Set(['EMAIL_OTP']))).toEqual(email[0]);
    expect(walletTiedContactChange([], new Set(['EMAIL_OTP', 'SMS_OTP']))).toBeUndefined();
  });

  test('the signed activity names the customer and the new value, as the reference’s payloads do', () => {
    expect(contactChangeActivity({ field: 'email', credentialType: 'EMAIL_OTP', value: 'new@example.com' }, 'Customer:c')).toEqual({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      parameters: { userEmail: 'new@example.com', userId: 'Customer:c' },
    });
    expect(contactChangeActivity({ field: 'phoneNumber', credentialType: 'SMS_OTP', value: '+14155550199' }, 'Customer:c')).toEqual({
      type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
      parameters: { userId: 'Customer:c', userPhoneNumber: '+14155550199' },
    });
  });
});
