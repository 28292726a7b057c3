import { newOtpTargetKey, openOtpBundle, otpTargetBundle } from '../../src/contexts/wallet-auth/services/otp-encryption';
import { encryptOtp, newDeviceKey, otpTargetOf } from '../support/wallet-client';

const masterKey = Buffer.alloc(32, 7);

describe('OTP bundles (HPKE)', () => {
  test('what the client seals to the target bundle, the holder of the target key opens', async () => {
    const target = newOtpTargetKey();
    const bundle = otpTargetBundle(masterKey, target.targetPublic);
    expect(otpTargetOf(bundle)).toBe(target.targetPublic);
    const device = newDeviceKey();
    const sealed = await encryptOtp(bundle, '000000', device.publicKey);
    expect(JSON.parse(sealed)).toEqual({ encappedPublic: expect.stringMatching(/^04[0-9a-f]{128}$/), ciphertext: expect.stringMatching(/^[0-9a-f]+$/) });
    await expect(openOtpBundle(target.privateKey, sealed)).resolves.toEqual({ otpCode: '000000', publicKey: device.publicKey });
  });

  test('another target key cannot open it; a tampered ciphertext does not open', async () => {
    const target = newOtpTargetKey();
    const sealed = await encryptOtp(otpTargetBundle(masterKey, target.targetPublic), '123456', newDeviceKey().publicKey);
    await expect(openOtpBundle(newOtpTargetKey().privateKey, sealed)).resolves.toBeNull();
    const parts = JSON.parse(sealed) as { encappedPublic: string; ciphertext: string };
    const flipped = `${parts.ciphertext.slice(0, -2)}${parts.ciphertext.endsWith('00') ? '01' : '00'}`;
    await expect(openOtpBundle(target.privateKey, JSON.stringify({ ...parts, ciphertext: flipped }))).resolves.toBeNull();
  });

  test('a bundle that is not {encappedPublic, ciphertext}, or holds no compressed public_key, is refused', async () => {
    const target = newOtpTargetKey();
    const bundle = otpTargetBundle(masterKey, target.targetPublic);
    await expect(openOtpBundle(target.privateKey, 'not json')).resolves.toBeNull();
    await expect(openOtpBundle(target.privateKey, '{"encappedPublic":"zz","ciphertext":"00"}')).resolves.toBeNull();
    const device = newDeviceKey();
    await expect(openOtpBundle(target.privateKey, await encryptOtp(bundle, '000000', device.uncompressedPublicKey))).resolves.toBeNull();
    await expect(openOtpBundle(target.privateKey, await encryptOtp(bundle, '', '', '{"otp_code":1}'))).resolves.toBeNull();
  });

  test('a bundle whose data was swapped fails its signature check on the client', () => {
    const bundle = JSON.parse(otpTargetBundle(masterKey, newOtpTargetKey().targetPublic)) as Record<string, string>;
    const swapped = JSON.stringify({ ...bundle, data: Buffer.from(JSON.stringify({ targetPublic: newOtpTargetKey().targetPublic })).toString('hex') });
    expect(() => otpTargetOf(swapped)).toThrow('dataSignature');
  });
});
