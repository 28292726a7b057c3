import { isUtf8 } from 'node:buffer';
import type { FieldError } from '../domain/errors';

/**
 * Text PostgreSQL would store with U+FFFD in place of what the client sent: bytes that are not
 * UTF-8, or a `\ud800`-style escape without its pair. Both are refused before a route reads the
 * body, naming the JSON field that holds them.
 */

/**
 * Stands in for each invalid UTF-8 sequence while the body is decoded to find the fields: valid
 * UTF-8 never decodes to an unpaired surrogate, so every one in the result is a mark (or an escape
 * the client wrote, refused alike).
 */
const MARK = '\ud800';

const isContinuation = (byte: number | undefined) => byte !== undefined && byte >= 0x80 && byte <= 0xbf;

/** The length of the well-formed UTF-8 sequence at `i`, or 0 (Unicode's table of well-formed byte sequences). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const second = bytes[i + 1];
  const [length, low, high] =
    lead >= 0xc2 && lead <= 0xdf
      ? [2, 0x80, 0xbf]
      : lead === 0xe0
        ? [3, 0xa0, 0xbf]
        : lead === 0xed
          ? [3, 0x80, 0x9f] // not the surrogates' range
          : lead >= 0xe1 && lead <= 0xef
            ? [3, 0x80, 0xbf]
            : lead === 0xf0
              ? [4, 0x90, 0xbf]
              : lead >= 0xf1 && lead <= 0xf3
                ? [4, 0x80, 0xbf]
                : lead === 0xf4
                  ? [4, 0x80, 0x8f] // nothing past U+10FFFF
                  : [0, 0, 0];
  if (length === 0 || second === undefined || second < low || second > high) return 0;
  for (let k = 2; k < length; k++) if (!isContinuation(bytes[i + k])) return 0;
  return length;
}

/** The bytes as text, each invalid sequence (a lead byte and the continuation bytes it took) replaced by MARK. */
function decodeMarkingInvalid(bytes: Buffer): string {
  let text = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', runStart, i) + MARK;
    i += 1;
    while (i < bytes.length && isContinuation(bytes[i]) && sequenceLength(bytes, i) === 0) i += 1;
    runStart = i;
  }
  return text + bytes.toString('utf8', runStart, bytes.length);
}

/** With the `u` flag a surrogate matches only where it has no pair: the string is not Unicode text there. */
const UNPAIRED = /[\ud800-\udfff]/u;
const UNPAIRED_ALL = /[\ud800-\udfff]/gu;
const wellFormed = (text: string) => text.replace(UNPAIRED_ALL, '\ufffd');

/** Every string (value or key) of a parsed JSON body holding an unpaired surrogate, by its dot path. */
function illFormedFields(value: unknown): string[] {
  const fields: string[] = [];
  const pending: { value: unknown; at: string }[] = [{ value, at: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: v, at } = next;
    if (typeof v === 'string') {
      if (UNPAIRED.test(v)) fields.push(at || 'body');
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => pending.push({ value: item, at: at ? `${at}.${i}` : String(i) }));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const name = at ? `${at}.${wellFormed(key)}` : wellFormed(key);
        if (UNPAIRED.test(key)) fields.push(name);
        else pending.push({ value: item, at: name });
      }
    }
  }
  return fields.reverse();
}

const NOT_UTF8 = 'Must be UTF-8 text: the body has bytes here that are not UTF-8';
const UNPAIRED_SURROGATE = 'Must not contain an unpaired surrogate escape (\\ud800–\\udfff without its pair): it is no character';

/**
 * A raw UTF-8 JSON body's bytes that are not UTF-8, by the field holding them (`body` when they
 * are outside any string, where the body is not JSON at all).
 */
export function invalidUtf8Errors(raw: Buffer): FieldError[] {
  if (isUtf8(raw)) return [];
  let fields: string[];
  try {
    fields = illFormedFields(JSON.parse(decodeMarkingInvalid(raw)));
  } catch {
    fields = [];
  }
  return (fields.length > 0 ? fields : ['body']).map((field) => ({ field, constraint: 'encoding', message: NOT_UTF8 }));
}

/** The fields of a parsed JSON body whose strings hold an unpaired surrogate (sent as a `\uXXXX` escape). */
export function unpairedSurrogateErrors(body: unknown): FieldError[] {
  return illFormedFields(body).map((field) => ({ field, constraint: 'encoding', message: UNPAIRED_SURROGATE }));
}
