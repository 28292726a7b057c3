import { newDeviceKey } from './keys';
import { encryptOtp } from './otp';
import { signedHeaders } from './stamp';

/**
 * The OTP login over plain HTTP (fetch), as scripts/wallet-client.ts runs it against a server:
 * challenge, `{otp_code, public_key}` sealed to the target bundle, the 202, the stamped retry.
 * Returns the session and the session key's private scalar (hex).
 */
export async function otpLoginOverHttp(base: string, auth: string, credentialId: string, code = '000000') {
  const headers = { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/json' };
  const call = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const path = `/auth/credentials/${encodeURIComponent(credentialId)}`;
  const credential = await call(`${path}/challenge`, {});
  const key = newDeviceKey();
  const body = { type: credential.type, encryptedOtpBundle: await encryptOtp(String(credential.otpEncryptionTargetBundle), code, key.publicKey) };
  const pending = (await call(`${path}/verify`, body)) as { payloadToSign: string; requestId: string };
  const session = await call(`${path}/verify`, body, signedHeaders(key, pending));
  return { session, privateKey: Buffer.from(key.privateKey).toString('hex') };
}
