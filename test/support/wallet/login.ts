import type { Api } from '../harness';
import { newDeviceKey, type DeviceKey } from './keys';
import { encryptOtp } from './otp';
import { signedHeaders } from './stamp';

/** The sandbox's one-time code (spec §5.6). */
export const SANDBOX_OTP = '000000';

export interface WalletSession {
  /** The AuthSession as the API returned it. */
  session: { id: string; accountId: string; type: string; expiresAt: string };
  /** The session's key: what signs the wallet's requests from now on. */
  key: DeviceKey;
}

/**
 * An OTP login as an app does it: a fresh device key, a challenge, `{otp_code, public_key}`
 * sealed to its target bundle, the 202, and the retry stamped with the device key.
 */
export async function otpLogin(api: Api, credentialId: string, type: 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP', code = SANDBOX_OTP): Promise<WalletSession> {
  const key = newDeviceKey();
  const challenge = await api.post(`/auth/credentials/${credentialId}/challenge`, {}).expect(200);
  const body = { type, encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, code, key.publicKey) };
  const pending = await api.post(`/auth/credentials/${credentialId}/verify`, body).expect(202);
  const session = await api.post(`/auth/credentials/${credentialId}/verify`, body, signedHeaders(key, pending.body)).expect(200);
  return { session: session.body, key };
}
