import type { FieldError } from '../../../domain/errors';

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
 * channel needs the wallet's signature (202, then the signed retry). Email and phone are changed
 * in separate calls when either is tied (rule 4): both at once is refused, each field named.
 * Returns the one change that needs the signature, if any.
 */
export function walletTiedContactChange(changes: ContactChange[], tied: ReadonlySet<OtpCredentialType>): { change?: ContactChange; problems: FieldError[] } {
  const tiedChanges = changes.filter((c) => tied.has(c.credentialType));
  if (tiedChanges.length === 0) return { problems: [] };
  if (changes.length > 1) {
    return {
      problems: changes.map((c) => ({
        field: c.field,
        constraint: 'separateContactChange',
        message: "the customer's embedded wallet signs in with its email and phone: change email and phoneNumber in separate requests",
      })),
    };
  }
  return { change: tiedChanges[0]!, problems: [] };
}

/**
 * What the wallet's owner signs to change the contact: an activity in the reference's payload
 * shape (organizationId, parameters, timestampMs, type), naming the customer and the new value.
 */
export function contactChangePayload(change: ContactChange, subject: { walletAccountId: string; customerId: string; at: Date }): string {
  const parameters =
    change.field === 'email' ? { userEmail: change.value, userId: subject.customerId } : { userId: subject.customerId, userPhoneNumber: change.value };
  return JSON.stringify({
    organizationId: subject.walletAccountId,
    parameters,
    timestampMs: String(subject.at.getTime()),
    type: change.field === 'email' ? 'ACTIVITY_TYPE_UPDATE_USER_EMAIL' : 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
  });
}
