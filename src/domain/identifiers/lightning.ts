import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { convertBits, decodeBech32, wordsToBytes } from './bech32';
import { accepted, type IdentifierCheck, refused } from './check';

/**
 * Lightning payment identifiers: BOLT11 invoices, BOLT12 offers and LUD-16 Lightning addresses.
 * All three are normalized to lower case (BOLT11 and BOLT12 strings are case-insensitive; the
 * user part of a Lightning address is defined in lower case).
 */

// ---------------------------------------------------------------------------------------------
// BOLT11
// ---------------------------------------------------------------------------------------------

/** `ln` + Bitcoin network (mainnet, regtest, signet, testnet) + optional amount and multiplier. */
const BOLT11_HRP = /^ln(bcrt|bc|tbs|tb)(\d*)([munp]?)$/;
const TIMESTAMP_WORDS = 7;
const SIGNATURE_WORDS = 104; // 65 bytes: r, s and the recovery id
const TAG_PAYMENT_HASH = 1; // 'p'
const TAG_PAYEE = 19; // 'n'

function bolt11HrpProblem(hrp: string): string | null {
  const match = BOLT11_HRP.exec(hrp);
  if (!match) {
    if (!hrp.startsWith('ln')) return 'A Lightning invoice starts with ln.';
    return 'A Lightning invoice starts with lnbc, lntb, lntbs or lnbcrt, optionally followed by an amount (digits and one of m, u, n, p).';
  }
  const [, , digits, multiplier] = match;
  if (digits === '' && multiplier !== '') return 'The invoice amount has a multiplier but no digits.';
  if (digits.startsWith('0')) return 'The invoice amount must not start with 0.';
  if (multiplier === 'p' && !digits.endsWith('0')) return 'The invoice amount is finer than a millisatoshi.';
  return null;
}

/**
 * A BOLT11 invoice: Bech32 (the long form, without the 90-character limit) with a checksum that
 * must match; the amount in the prefix is well formed; the data holds a timestamp, well-formed
 * tagged fields with a payment hash, and a signature from which a public key can be recovered
 * (and which matches the payee `n` field when the invoice carries one).
 */
export function checkLightningInvoice(value: string): IdentifierCheck {
  const decoded = decodeBech32(value, { allowLong: true, variant: 'bech32' });
  if (!decoded.ok) return refused(decoded.reason);
  const hrpProblem = bolt11HrpProblem(decoded.hrp);
  if (hrpProblem) return refused(hrpProblem);
  const words = decoded.words;
  if (words.length < TIMESTAMP_WORDS + SIGNATURE_WORDS) return refused('The invoice is too short to hold a timestamp and a signature.');

  const fieldsEnd = words.length - SIGNATURE_WORDS;
  let paymentHash = false;
  let payee: Uint8Array | null = null;
  for (let i = TIMESTAMP_WORDS; i < fieldsEnd;) {
    if (i + 3 > fieldsEnd) return refused('The invoice has a truncated tagged field.');
    const tag = words[i];
    const length = words[i + 1] * 32 + words[i + 2];
    const start = i + 3;
    if (start + length > fieldsEnd) return refused('The invoice has a tagged field longer than the invoice.');
    // Fields of an unexpected length are skipped, as BOLT11 tells readers to.
    if (tag === TAG_PAYMENT_HASH && length === 52) paymentHash = true;
    if (tag === TAG_PAYEE && length === 53 && payee === null) payee = wordsToBytes(words.slice(start, start + length));
    i = start + length;
  }
  if (!paymentHash) return refused('The invoice has no payment hash.');

  const signature = wordsToBytes(words.slice(fieldsEnd)) as Uint8Array; // 520 bits: exactly 65 bytes
  const recovery = signature[64];
  if (recovery > 3) return refused('The invoice signature has an invalid recovery id.');
  const signedBytes = convertBits(words.slice(0, fieldsEnd), 5, 8, true) as number[];
  const hrpBytes = new TextEncoder().encode(decoded.hrp);
  const digest = sha256(Uint8Array.from([...hrpBytes, ...signedBytes]));
  let recovered: Uint8Array;
  try {
    const r = bytesToBigInt(signature.subarray(0, 32));
    const s = bytesToBigInt(signature.subarray(32, 64));
    recovered = new secp256k1.Signature(r, s, recovery).recoverPublicKey(digest).toBytes(true);
  } catch {
    return refused('The invoice signature is not valid.');
  }
  if (payee !== null && !equalBytes(payee, recovered)) return refused('The invoice signature does not match its payee node.');
  return accepted(value.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// BOLT12 offers
// ---------------------------------------------------------------------------------------------

/** BOLT12 `+` continuations: `+` then optional whitespace, between two Bech32-set characters. */
function joinContinuations(value: string): string | null {
  if (!value.includes('+')) return value;
  const parts = value.split(/\+\s*/);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === '') return null;
    if (i < parts.length - 1 && !/[a-z0-9]$/i.test(part)) return null;
    if (i > 0 && !/^[a-z0-9]/i.test(part)) return null;
  }
  return parts.join('');
}

/** A BOLT1 BigSize (minimally encoded). */
function readBigSize(bytes: Uint8Array, offset: number): { value: number; next: number } | null {
  if (offset >= bytes.length) return null;
  const first = bytes[offset];
  const widths: Record<number, number> = { 0xfd: 2, 0xfe: 4, 0xff: 8 };
  const width = widths[first];
  if (width === undefined) return { value: first, next: offset + 1 };
  if (offset + 1 + width > bytes.length) return null;
  let value = 0n;
  for (let i = 0; i < width; i++) value = (value << 8n) | BigInt(bytes[offset + 1 + i]);
  const minimum = width === 2 ? 0xfdn : width === 4 ? 0x10000n : 0x100000000n;
  if (value < minimum || value > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { value: Number(value), next: offset + 1 + width };
}

const OFFER = {
  chains: 2,
  metadata: 4,
  currency: 6,
  amount: 8,
  description: 10,
  features: 12,
  absoluteExpiry: 14,
  paths: 16,
  issuer: 18,
  quantityMax: 20,
  issuerId: 22,
} as const;
const KNOWN_OFFER_TYPES = new Set<number>(Object.values(OFFER));

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

function isPoint(bytes: Uint8Array): boolean {
  if (bytes.length !== 33) return false;
  try {
    secp256k1.Point.fromBytes(bytes).assertValidity();
    return true;
  } catch {
    return false;
  }
}

/** `offer_paths`: one or more blinded paths, each with at least one hop. Returns a problem or null. */
function offerPathsProblem(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'The offer has an empty list of paths.';
  let at = 0;
  const take = (n: number): Uint8Array | null => {
    if (at + n > bytes.length) return null;
    const out = bytes.subarray(at, at + n);
    at += n;
    return out;
  };
  while (at < bytes.length) {
    // first_node_id: a public key, or an sciddir (0 or 1, then an 8-byte short channel id).
    const marker = bytes[at];
    if (marker === 0 || marker === 1) {
      if (take(9) === null) return 'The offer has a truncated path.';
    } else {
      const node = take(33);
      if (node === null) return 'The offer has a truncated path.';
      if (!isPoint(node)) return 'The offer has a path with an invalid first node id.';
    }
    const pathKey = take(33);
    if (pathKey === null) return 'The offer has a truncated path.';
    if (!isPoint(pathKey)) return 'The offer has a path with an invalid path key.';
    const hops = take(1);
    if (hops === null) return 'The offer has a truncated path.';
    if (hops[0] === 0) return 'The offer has a path without hops.';
    for (let h = 0; h < hops[0]; h++) {
      const blindedNode = take(33);
      if (blindedNode === null) return 'The offer has a truncated path.';
      if (!isPoint(blindedNode)) return 'The offer has a path with an invalid blinded node id.';
      const length = take(2);
      if (length === null || take((length[0] << 8) | length[1]) === null) return 'The offer has a truncated path.';
    }
  }
  return null;
}

/**
 * A BOLT12 offer (`lno1…`): Bech32 characters without a checksum, `+` continuations allowed. The
 * data must be a well-formed TLV stream of offer fields (types ascending, within the offer
 * ranges, no unknown even type, no unknown even feature bit) with a valid issuer id or at least
 * one blinded path, and amount/description/currency consistent (BOLT12 reader rules).
 */
export function checkBolt12Offer(value: string): IdentifierCheck {
  const joined = joinContinuations(value);
  if (joined === null) return refused('A + in a BOLT12 offer must join two parts of the string.');
  const decoded = decodeBech32(joined, { allowLong: true, noChecksum: true });
  if (!decoded.ok) return refused(decoded.reason);
  if (decoded.hrp !== 'lno') return refused('A BOLT12 offer starts with lno1.');
  const bytes = wordsToBytes(decoded.words);
  if (bytes === null) return refused('The offer data does not decode to whole bytes.');
  if (bytes.length === 0) return refused('The offer is empty.');

  const fields = new Map<number, Uint8Array>();
  let previous = -1;
  for (let at = 0; at < bytes.length;) {
    const type = readBigSize(bytes, at);
    if (type === null) return refused('The offer data is truncated.');
    const length = readBigSize(bytes, type.next);
    if (length === null || length.next + length.value > bytes.length) return refused('The offer data is truncated.');
    if (type.value <= previous) return refused('The offer fields are out of order.');
    const inRange = (type.value >= 1 && type.value <= 79) || (type.value >= 1_000_000_000 && type.value <= 1_999_999_999);
    if (!inRange) return refused('The offer holds a field outside the offer ranges.');
    if (type.value % 2 === 0 && !KNOWN_OFFER_TYPES.has(type.value)) return refused('The offer holds an unknown required field.');
    fields.set(type.value, bytes.subarray(length.next, length.next + length.value));
    previous = type.value;
    at = length.next + length.value;
  }

  const chains = fields.get(OFFER.chains);
  if (chains && chains.length % 32 !== 0) return refused('The offer chains field is malformed.');
  for (const [type, name] of [
    [OFFER.currency, 'currency'],
    [OFFER.description, 'description'],
    [OFFER.issuer, 'issuer'],
  ] as const) {
    const text = fields.get(type);
    if (text && !isUtf8(text)) return refused(`The offer ${name} is not valid UTF-8.`);
  }
  for (const type of [OFFER.amount, OFFER.absoluteExpiry, OFFER.quantityMax]) {
    const number = fields.get(type);
    if (number && number.length > 8) return refused('The offer holds an oversized number.');
  }
  const features = fields.get(OFFER.features);
  if (features) {
    // Bit 0 is the least significant bit of the last byte; no offer feature is defined, so any
    // even (required) bit is one this reader does not understand.
    for (let i = 0; i < features.length; i++) {
      if ((features[features.length - 1 - i] & 0b01010101) !== 0) return refused('The offer requires a feature this service does not know.');
    }
  }
  const paths = fields.get(OFFER.paths);
  if (paths) {
    const problem = offerPathsProblem(paths);
    if (problem) return refused(problem);
  }
  const issuerId = fields.get(OFFER.issuerId);
  if (issuerId && !isPoint(issuerId)) return refused('The offer issuer id is not a valid public key.');
  if (!issuerId && !paths) return refused('The offer has neither an issuer id nor a path.');
  if (fields.has(OFFER.amount) && !fields.has(OFFER.description)) return refused('An offer with an amount must have a description.');
  if (fields.has(OFFER.currency) && !fields.has(OFFER.amount)) return refused('An offer with a currency must have an amount.');
  return accepted(joined.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// LUD-16 Lightning addresses
// ---------------------------------------------------------------------------------------------

const LIGHTNING_USER = /^[a-z0-9\-_.+]+$/;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A LUD-16 Lightning address `user@domain`: the user in `[a-z0-9-_.+]`, the domain a host name with a dot. */
export function checkLightningAddress(value: string): IdentifierCheck {
  const lower = value.toLowerCase();
  const at = lower.indexOf('@');
  if (at < 0 || at !== lower.lastIndexOf('@')) return refused('A Lightning address has the form user@domain.');
  const user = lower.slice(0, at);
  const domain = lower.slice(at + 1);
  if (!LIGHTNING_USER.test(user)) return refused('The user part of a Lightning address may only hold a-z, 0-9, -, _, . and +.');
  if (domain.length > 253) return refused('The domain of a Lightning address is too long.');
  const labels = domain.split('.');
  if (labels.length < 2) return refused('The domain of a Lightning address must contain a dot.');
  if (!labels.every((label) => HOST_LABEL.test(label))) return refused('The domain of a Lightning address is not a valid host name.');
  if (/^\d+$/.test(labels[labels.length - 1])) return refused('The domain of a Lightning address must be a host name, not an IP address.');
  return accepted(lower);
}

// ---------------------------------------------------------------------------------------------

function bytesToBigInt(bytes: Uint8Array): bigint {
  let out = 0n;
  for (const byte of bytes) out = (out << 8n) | BigInt(byte);
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
