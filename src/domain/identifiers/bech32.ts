/**
 * Bech32 (BIP-173) and Bech32m (BIP-350) decoding, plus the encoder the tests and the signing
 * script need. Two departures from the BIPs, both opt-in:
 * - `allowLong`: the BIPs cap a string at 90 characters; Lightning invoices and Spark addresses
 *   use the same checksum over longer strings (capped here at {@link MAX_LONG_LENGTH}).
 * - `noChecksum`: BOLT12 strings (`lno1…`) use the Bech32 character set without any checksum.
 *   Their `+` line continuations are removed by the BOLT12 check before it calls this decoder.
 */
export const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHARSET_INDEX = new Map<string, number>([...BECH32_CHARSET].map((char, i) => [char, i]));

export type Bech32Variant = 'bech32' | 'bech32m';
const CHECKSUM_CONSTANT: Record<Bech32Variant, number> = { bech32: 1, bech32m: 0x2bc830a3 };

/** The BIP-173 length limit. */
export const MAX_LENGTH = 90;
/** The limit with `allowLong`, a guard against absurd inputs rather than a rule of any format. */
export const MAX_LONG_LENGTH = 8192;

export interface Bech32DecodeOptions {
  /** Which checksum to accept; by default whichever of the two matches. */
  variant?: Bech32Variant;
  /** Accept strings longer than 90 characters. */
  allowLong?: boolean;
  /** The string has no checksum at all (BOLT12). */
  noChecksum?: boolean;
}

/** A decoded string: lower-case human-readable part and the 5-bit data words, checksum removed. */
export type Bech32Decoded = { ok: true; hrp: string; words: number[]; variant: Bech32Variant | null } | { ok: false; reason: string };

const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: readonly number[]): number {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ value) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ GENERATOR[i]) >>> 0;
  }
  return chk;
}

function hrpExpand(hrp: string): number[] {
  const high: number[] = [];
  const low: number[] = [];
  for (let i = 0; i < hrp.length; i++) {
    const code = hrp.charCodeAt(i);
    high.push(code >> 5);
    low.push(code & 31);
  }
  return [...high, 0, ...low];
}

/** Decodes a Bech32 or Bech32m string (see the options for the departures from the BIPs). */
export function decodeBech32(value: string, options: Bech32DecodeOptions = {}): Bech32Decoded {
  const limit = options.allowLong ? MAX_LONG_LENGTH : MAX_LENGTH;
  if (value.length > limit) return { ok: false, reason: `It is longer than ${limit} characters.` };
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 33 || code > 126) return { ok: false, reason: 'It contains a character that is not printable ASCII.' };
  }
  const lower = value.toLowerCase();
  if (lower !== value && value.toUpperCase() !== value) return { ok: false, reason: 'It mixes upper and lower case.' };
  const separator = lower.lastIndexOf('1');
  if (separator < 0) return { ok: false, reason: 'It has no "1" separator.' };
  if (separator === 0) return { ok: false, reason: 'Its human-readable part is empty.' };
  const checksumLength = options.noChecksum ? 0 : 6;
  if (lower.length - separator - 1 < checksumLength) return { ok: false, reason: 'Its checksum is too short.' };
  const hrp = lower.slice(0, separator);
  const data: number[] = [];
  for (const char of lower.slice(separator + 1)) {
    const word = CHARSET_INDEX.get(char);
    if (word === undefined) return { ok: false, reason: `It contains "${char}", which is not a Bech32 character.` };
    data.push(word);
  }
  if (options.noChecksum) return { ok: true, hrp, words: data, variant: null };
  const residue = polymod([...hrpExpand(hrp), ...data]);
  const variants: Bech32Variant[] = options.variant ? [options.variant] : ['bech32', 'bech32m'];
  const variant = variants.find((candidate) => residue === CHECKSUM_CONSTANT[candidate]);
  if (!variant) {
    return { ok: false, reason: `Its ${options.variant === 'bech32m' ? 'Bech32m' : 'Bech32'} checksum does not match.` };
  }
  return { ok: true, hrp, words: data.slice(0, data.length - 6), variant };
}

/** Encodes a human-readable part and 5-bit words as a Bech32 or Bech32m string (lower case). */
export function encodeBech32(hrp: string, words: readonly number[], variant: Bech32Variant): string {
  const lowerHrp = hrp.toLowerCase();
  for (const word of words) {
    if (!Number.isInteger(word) || word < 0 || word > 31) throw new RangeError(`Not a 5-bit word: ${word}`);
  }
  const residue = polymod([...hrpExpand(lowerHrp), ...words, 0, 0, 0, 0, 0, 0]) ^ CHECKSUM_CONSTANT[variant];
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (residue >>> (5 * (5 - i))) & 31);
  return `${lowerHrp}1${[...words, ...checksum].map((word) => BECH32_CHARSET[word]).join('')}`;
}

/**
 * Regroups bits (for example 8-bit bytes into 5-bit words). With `pad` the last group is filled
 * with zero bits; without it, leftover bits must be fewer than `fromBits` and all zero (BIP-173),
 * else `null`.
 */
export function convertBits(data: ArrayLike<number>, fromBits: number, toBits: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxOut = (1 << toBits) - 1;
  for (let i = 0; i < data.length; i++) {
    const value = data[i];
    if (value < 0 || value >> fromBits !== 0) return null;
    acc = ((acc << fromBits) | value) & 0xffffff;
    bits += fromBits;
    while (bits >= toBits) {
      bits -= toBits;
      out.push((acc >> bits) & maxOut);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (toBits - bits)) & maxOut);
  } else if (bits >= fromBits || ((acc << (toBits - bits)) & maxOut) !== 0) {
    return null;
  }
  return out;
}

/** The bytes carried by 5-bit words (strict padding), or `null`. */
export function wordsToBytes(words: readonly number[]): Uint8Array | null {
  const bytes = convertBits(words, 5, 8, false);
  return bytes === null ? null : Uint8Array.from(bytes);
}

/** The 5-bit words carrying some bytes (zero-padded). */
export function bytesToWords(bytes: Uint8Array): number[] {
  return convertBits(bytes, 8, 5, true) as number[];
}
