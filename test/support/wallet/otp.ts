import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** The target key of an `otpEncryptionTargetBundle`, after checking the bundle's signature as a careful client does. */
export function otpTargetOf(bundle: string): string {
  const { data, dataSignature, enclaveQuorumPublic } = JSON.parse(bundle) as { data: string; dataSignature: string; enclaveQuorumPublic: string };
  const signed = p256.verify(Buffer.from(dataSignature, 'hex'), Buffer.from(data, 'hex'), Buffer.from(enclaveQuorumPublic, 'hex'), {
    prehash: true,
    format: 'der',
    lowS: false,
  });
  if (!signed) throw new Error('otpEncryptionTargetBundle: dataSignature does not verify');
  return (JSON.parse(Buffer.from(data, 'hex').toString('utf8')) as { targetPublic: string }).targetPublic;
}

/**
 * What the app sends as `encryptedOtpBundle`: `{otp_code, public_key}` HPKE-sealed to the
 * bundle's target key (info `turnkey_hpke`, AAD = encapsulated key ‖ target key).
 */
export async function encryptOtp(bundle: string, otpCode: string, publicKey: string, plaintext?: string): Promise<string> {
  const target = new Uint8Array(Buffer.from(otpTargetOf(bundle), 'hex'));
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(target),
    info: new TextEncoder().encode('turnkey_hpke'),
  });
  const enc = new Uint8Array(sender.enc);
  const body = plaintext ?? JSON.stringify({ otp_code: otpCode, public_key: publicKey });
  const ciphertext = await sender.seal(new TextEncoder().encode(body), new Uint8Array([...enc, ...target]));
  return JSON.stringify({ encappedPublic: Buffer.from(enc).toString('hex'), ciphertext: Buffer.from(ciphertext).toString('hex') });
}
