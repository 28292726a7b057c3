import { createHash, randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { cose, isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/** Authenticator-data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const sha256 = (bytes: Uint8Array | string) => new Uint8Array(createHash('sha256').update(bytes).digest());
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** What a browser-side ceremony may get wrong (or an attacker may forge), to test each refusal. */
export interface CeremonyOptions {
  origin?: string;
  rpId?: string;
  /** The user-presence bit; an authenticator that signs without a touch leaves it off. */
  userPresent?: boolean;
  /** The signature counter to report; by default one more than the last. */
  counter?: number;
  /** Signs with this key instead of the registered one. */
  signingKey?: Uint8Array;
}

/**
 * A software WebAuthn authenticator (ES256 on P-256), as a phone or security key would answer
 * navigator.credentials.create() / .get(): real "none" attestations and real assertions, encoded
 * with @simplewebauthn/server's CBOR and COSE helpers. Field names are the service's
 * (`clientDataJson`).
 */
export class SoftwareAuthenticator {
  readonly privateKey = p256.utils.randomSecretKey();
  readonly credentialId = b64url(randomBytes(16));
  counter = 0;

  constructor(
    readonly rpId = 'localhost',
    readonly origin = 'http://localhost',
  ) {}

  private authenticatorData(options: CeremonyOptions, flags: number, attested?: Uint8Array): Uint8Array {
    const counter = options.counter ?? this.counter + 1;
    this.counter = Math.max(this.counter, counter);
    const up = options.userPresent === false ? 0 : UP;
    return concat(sha256(options.rpId ?? this.rpId), Uint8Array.of(flags | up | UV), u32(counter), attested ?? new Uint8Array());
  }

  private cosePublicKey(): Uint8Array {
    const point = p256.getPublicKey(this.privateKey, false);
    const key = new Map<number, number | Uint8Array>([
      [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
      [cose.COSEKEYS.alg, cose.COSEALG.ES256],
      [cose.COSEKEYS.crv, cose.COSECRV.P256],
      [cose.COSEKEYS.x, point.slice(1, 33)],
      [cose.COSEKEYS.y, point.slice(33, 65)],
    ]);
    return isoCBOR.encode(key);
  }

  /** navigator.credentials.create() for a registration challenge (base64url, as the platform issued it). */
  register(challenge: string, options: CeremonyOptions = {}) {
    const credentialId = isoBase64URL.toBuffer(this.credentialId);
    const attested = concat(new Uint8Array(16), Uint8Array.of(credentialId.length >> 8, credentialId.length & 0xff), credentialId, this.cosePublicKey());
    const authData = this.authenticatorData({ ...options, counter: options.counter ?? 0 }, AT, attested);
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge, origin: options.origin ?? this.origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      credentialId: this.credentialId,
      clientDataJson: b64url(new TextEncoder().encode(clientData)),
      attestationObject: b64url(attestationObject),
      transports: ['internal' as const],
    };
  }

  /** navigator.credentials.get() for the service's challenge: the authenticator signs the UTF-8 bytes of the hex string. */
  assert(challengeHex: string, options: CeremonyOptions = {}) {
    const authData = this.authenticatorData(options, 0);
    const clientData = new TextEncoder().encode(
      JSON.stringify({ type: 'webauthn.get', challenge: isoBase64URL.fromUTF8String(challengeHex), origin: options.origin ?? this.origin, crossOrigin: false }),
    );
    const signature = p256.sign(concat(authData, sha256(clientData)), options.signingKey ?? this.privateKey, { format: 'der' });
    return { credentialId: this.credentialId, clientDataJson: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature) };
  }
}
