import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { randomBytes } from 'node:crypto';

/**
 * A software passkey, as a phone's platform authenticator behaves: a P-256 key per credential,
 * attestations of format `none`, assertions signed over authenticatorData ‖ SHA-256(clientDataJSON),
 * a signature counter that rises with each use. Tests turn its knobs to make it misbehave.
 */

type Bytes = Uint8Array<ArrayBuffer>;
const bytes = (u: Uint8Array): Bytes => new Uint8Array(u) as Bytes;
const b64 = (u: Uint8Array) => isoBase64URL.fromBuffer(bytes(u));

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n >>> 0);
  return out;
}

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out as Bytes;
}

export interface CeremonyOptions {
  /** The origin the browser would put in clientDataJSON (default: the first allowed origin). */
  origin?: string;
  /** The relying party id whose hash goes into authenticatorData (default: the options' rpId). */
  rpId?: string;
  /** Overrides the challenge signed (default: the options' challenge). */
  challenge?: string;
  /** Leaves out the user-verification flag (a passkey used without PIN or biometrics). */
  withoutUserVerification?: boolean;
  /** Leaves out the user-presence flag. */
  withoutUserPresence?: boolean;
  /** Uses this signature counter instead of the next one (a cloned authenticator). */
  counter?: number;
}

export class SoftwareAuthenticator {
  readonly secretKey = p256.utils.randomSecretKey();
  readonly credentialId = b64(randomBytes(32));
  counter = 0;

  /** The COSE_Key (EC2, ES256) of the public key. */
  private cosePublicKey(): Uint8Array {
    const point = p256.getPublicKey(this.secretKey, false); // 0x04 ‖ x ‖ y
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, bytes(point.slice(1, 33))],
      [-3, bytes(point.slice(33, 65))],
    ]);
    return isoCBOR.encode(key as never);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): string {
    return JSON.stringify({ type, challenge, origin, crossOrigin: false });
  }

  private flags(o: CeremonyOptions, extra = 0): number {
    return (o.withoutUserPresence ? 0 : FLAG_UP) | (o.withoutUserVerification ? 0 : FLAG_UV) | extra;
  }

  /** The registration response (attestation) for WebAuthn creation options (`options.challenge`, `options.rp.id`). */
  attest(options: { challenge: string; rp: { id?: string } }, origin: string, o: CeremonyOptions = {}) {
    const rpId = o.rpId ?? options.rp.id!;
    const clientDataJSON = this.clientData('webauthn.create', o.challenge ?? options.challenge, o.origin ?? origin);
    const credentialId = isoBase64URL.toBuffer(this.credentialId);
    const idLength = new Uint8Array([credentialId.length >> 8, credentialId.length & 0xff]);
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([this.flags(o, FLAG_AT)]),
      u32(this.counter),
      new Uint8Array(16),
      idLength,
      credentialId,
      this.cosePublicKey(),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: { clientDataJSON: b64(new TextEncoder().encode(clientDataJSON)), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** The authentication response (assertion) for WebAuthn request options (`options.challenge`, `options.rpId`). */
  assert(options: { challenge: string; rpId?: string }, origin: string, o: CeremonyOptions = {}) {
    const rpId = o.rpId ?? options.rpId!;
    const counter = o.counter ?? ++this.counter;
    const clientDataJSON = new TextEncoder().encode(this.clientData('webauthn.get', o.challenge ?? options.challenge, o.origin ?? origin));
    const authData = concat(sha256(new TextEncoder().encode(rpId)), new Uint8Array([this.flags(o)]), u32(counter));
    const signature = p256.sign(concat(authData, sha256(clientDataJSON)), this.secretKey, { format: 'der' });
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature) },
      clientExtensionResults: {},
    };
  }
}
