/** The OTP credential a contact field feeds: codes to the email (EMAIL_OTP) or by SMS to the phone (SMS_OTP). */
export type OtpCredentialType = 'EMAIL_OTP' | 'SMS_OTP';

export interface ContactChange {
  field: 'email' | 'phoneNumber';
  credentialType: OtpCredentialType;
  value: string;
}

/** The contact fields an update changes (a field sent with the value on file changes nothing). */
export function contactChangesOf(
  update: { email?: string | undefined; phoneNumber?: string | undefined },
  current: { email?: string | null; phoneNumber?: string | null },
): ContactChange[] {
  const changes: ContactChange[] = [];
  if (update.email !== undefined && update.email !== current.email) changes.push({ field: 'email', credentialType: 'EMAIL_OTP', value: update.email });
  if (update.phoneNumber !== undefined && update.phoneNumber !== current.phoneNumber)
    changes.push({ field: 'phoneNumber', credentialType: 'SMS_OTP', value: update.phoneNumber });
  return changes;
}

/**
 * Spec §4.4: a contact change of a customer whose embedded wallets hold OTP credentials of that
 * channel needs the wallet's signature (202, then the signed retry). Email and phone never change
 * in one request (rule 4, an update rule of every customer: `exclusive`), so there is at most one.
 */
export function walletTiedContactChange(changes: ContactChange[], tied: ReadonlySet<OtpCredentialType>): ContactChange | undefined {
  return changes.find((c) => tied.has(c.credentialType));
}

/**
 * What the wallet's owner signs to change the contact, in the reference's payload shape: the
 * activity type and its parameters naming the customer and the new value.
 */
export function contactChangeActivity(change: ContactChange, customerId: string): { type: string; parameters: Record<string, string> } {
  return change.field === 'email'
    ? { type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', parameters: { userEmail: change.value, userId: customerId } }
    : { type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', parameters: { userId: customerId, userPhoneNumber: change.value } };
}
