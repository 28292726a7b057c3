import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToWords, decodeBech32, encodeBech32, wordsToBytes } from './bech32';
import { accepted, type IdentifierCheck, refused } from './check';

/**
 * Spark addresses (the Bitcoin layer-2 by Lightspark), as the Spark SDK encodes them:
 * Bech32m, human-readable part = network (`spark` mainnet, `sparkt` testnet, `sparkrt` regtest,
 * `sparks` signet, `sparkl` local), data = the protobuf message
 *   SparkAddress { bytes identity_public_key = 1; SparkInvoiceFields spark_invoice_fields = 2;
 *                  bytes signature = 3; }
 * A plain wallet address carries field 1 only, the wallet's 33-byte compressed secp256k1 identity
 * public key: the bytes 0x0a (field 1, length-delimited), 0x21 (33), then the key.
 *
 * Accepted here: a plain address whose key is a valid curve point. Refused: Spark invoices
 * (fields 2 and 3 present: a payment request, not an account) and any other content. The SDK
 * still reads the earlier prefixes (`sp`, `spt`, `sprt`, `sps`, `spl`); they are accepted and
 * normalized to the current prefix, which is what the SDK writes today. Bech32m strings longer
 * than 90 characters are allowed (the SDK's own limit is 1024).
 */
export const SPARK_HRPS = ['spark', 'sparkt', 'sparkrt', 'sparks', 'sparkl'] as const;
export type SparkHrp = (typeof SPARK_HRPS)[number];

const LEGACY_HRPS: Record<string, SparkHrp> = { sp: 'spark', spt: 'sparkt', sprt: 'sparkrt', sps: 'sparks', spl: 'sparkl' };
const SPARK_MAX_LENGTH = 1024;
const IDENTITY_KEY_TAG = 0x0a; // field 1, wire type 2
const KEY_LENGTH = 33;

type Parsed = { ok: true; hrp: SparkHrp; identityPublicKey: Uint8Array } | { ok: false; reason: string };

const isSparkHrp = (hrp: string): hrp is SparkHrp => (SPARK_HRPS as readonly string[]).includes(hrp);

function isCompressedPoint(key: Uint8Array): boolean {
  if (key.length !== KEY_LENGTH || (key[0] !== 0x02 && key[0] !== 0x03)) return false;
  try {
    secp256k1.Point.fromBytes(key).assertValidity();
    return true;
  } catch {
    return false;
  }
}

/** Reads a protobuf varint (at most 5 bytes are enough for any tag or length used here). */
function readVarint(bytes: Uint8Array, offset: number): { value: number; next: number } | null {
  let value = 0;
  for (let i = 0; i < 5 && offset + i < bytes.length; i++) {
    const byte = bytes[offset + i];
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return { value, next: offset + i + 1 };
  }
  return null;
}

function parseSparkAddress(value: string): Parsed {
  if (value.length > SPARK_MAX_LENGTH) return { ok: false, reason: `A Spark address is at most ${SPARK_MAX_LENGTH} characters.` };
  const decoded = decodeBech32(value, { allowLong: true });
  if (!decoded.ok) return { ok: false, reason: decoded.reason };
  const hrp = isSparkHrp(decoded.hrp) ? decoded.hrp : LEGACY_HRPS[decoded.hrp];
  if (!hrp) return { ok: false, reason: 'A Spark address starts with spark1 (or sparkt1, sparkrt1, sparks1, sparkl1).' };
  if (decoded.variant !== 'bech32m') return { ok: false, reason: 'A Spark address uses the Bech32m checksum, not Bech32.' };
  const payload = wordsToBytes(decoded.words);
  if (payload === null) return { ok: false, reason: 'The Spark address data does not decode to whole bytes.' };

  // Walk the protobuf fields by hand: field 1 (the key) exactly once, nothing else.
  let identityPublicKey: Uint8Array | null = null;
  let offset = 0;
  while (offset < payload.length) {
    const tag = readVarint(payload, offset);
    if (tag === null) return { ok: false, reason: 'The Spark address data is not a valid protobuf message.' };
    const field = Math.floor(tag.value / 8);
    if (field === 2 || field === 3) return { ok: false, reason: 'This is a Spark invoice, not a Spark address.' };
    if (tag.value !== IDENTITY_KEY_TAG) return { ok: false, reason: 'The Spark address data holds an unexpected field.' };
    if (identityPublicKey !== null) return { ok: false, reason: 'The Spark address data repeats the identity public key.' };
    const length = readVarint(payload, tag.next);
    if (length === null || length.next + length.value > payload.length) {
      return { ok: false, reason: 'The Spark address data is truncated.' };
    }
    identityPublicKey = payload.slice(length.next, length.next + length.value);
    offset = length.next + length.value;
  }
  if (identityPublicKey === null) return { ok: false, reason: 'The Spark address data holds no identity public key.' };
  if (!isCompressedPoint(identityPublicKey)) {
    return { ok: false, reason: 'The Spark identity public key is not a valid 33-byte compressed secp256k1 key.' };
  }
  return { ok: true, hrp, identityPublicKey };
}

export function checkSparkAddress(value: string): IdentifierCheck {
  const parsed = parseSparkAddress(value);
  if (!parsed.ok) return refused(parsed.reason);
  return accepted(encodeSparkAddress(parsed.identityPublicKey, parsed.hrp));
}

/** The 33-byte compressed identity public key carried by a Spark address; throws when it is not valid. */
export function sparkIdentityPublicKey(address: string): Uint8Array {
  const parsed = parseSparkAddress(address);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.identityPublicKey;
}

/** The Spark address of a 33-byte compressed identity public key. */
export function encodeSparkAddress(pubkey: Uint8Array, hrp: SparkHrp = 'spark'): string {
  if (!isSparkHrp(hrp)) throw new Error(`Unknown Spark network prefix: ${String(hrp)}`);
  if (!isCompressedPoint(pubkey)) throw new Error('Expected a 33-byte compressed secp256k1 public key.');
  const payload = new Uint8Array(2 + KEY_LENGTH);
  payload[0] = IDENTITY_KEY_TAG;
  payload[1] = KEY_LENGTH;
  payload.set(pubkey, 2);
  return encodeBech32(hrp, bytesToWords(payload), 'bech32m');
}
