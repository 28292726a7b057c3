import { p256 } from '@noble/curves/nist.js';

/** A P-256 key pair as a device holds it: the private scalar never leaves the test's "device". */
export interface DeviceKey {
  privateKey: Uint8Array;
  /** Compressed SEC1 hex (02/03 …, 66 characters): what the service is told. */
  publicKey: string;
  /** Uncompressed SEC1 hex (04 …, 130 characters). */
  uncompressedPublicKey: string;
}

export function newDeviceKey(): DeviceKey {
  return deviceKeyOf(p256.utils.randomSecretKey());
}

/** The key pair of a private scalar (32 bytes, or its hex). */
export function deviceKeyOf(secret: Uint8Array | string): DeviceKey {
  const privateKey = typeof secret === 'string' ? new Uint8Array(Buffer.from(secret, 'hex')) : secret;
  return {
    privateKey,
    publicKey: Buffer.from(p256.getPublicKey(privateKey, true)).toString('hex'),
    uncompressedPublicKey: Buffer.from(p256.getPublicKey(privateKey, false)).toString('hex'),
  };
}
