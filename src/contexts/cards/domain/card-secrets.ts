import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Card numbers and reveal links. The PAN and CVV exist in clear only inside these functions and
 * the encryption call that seals them; they are never part of a view, a log line or an event.
 */

/** The sandbox issuer's BIN (a VISA test range). */
const SANDBOX_BIN = '400000';

function luhnCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function luhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === Number(pan.slice(-1));
}

export function newSandboxPan(): string {
  let body = SANDBOX_BIN;
  while (body.length < 15) body += String(randomInt(10));
  return body + String(luhnCheckDigit(body));
}

export function newCvv(): string {
  return String(randomInt(1000)).padStart(3, '0');
}

/** Keyed hash for lookups by PAN: a plain hash of a 16-digit number with a known BIN is brute-forceable. */
export function panHash(key: Buffer, pan: string): string {
  return createHmac('sha256', key).update(`pan:${pan}`).digest('hex');
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(`card-reveal:${payload}`).digest('base64url');

/**
 * A bearer token naming the card, the link (`linkId`: the card keeps the id of the one link that
 * may still be used, so a link works once) and its expiry (ms since epoch), signed with the
 * service's key.
 */
export function revealToken(key: Buffer, cardId: string, linkId: string, expiresAtMs: number): string {
  const payload = Buffer.from(JSON.stringify({ c: cardId, l: linkId, e: expiresAtMs })).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The card and link a reveal token is for, or null when it is forged, altered or expired. */
export function verifyRevealToken(key: Buffer, token: string, nowMs: number): { cardId: string; linkId: string } | null {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { c, l, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { c: unknown; l: unknown; e: unknown };
    return typeof c === 'string' && typeof l === 'string' && typeof e === 'number' && nowMs <= e ? { cardId: c, linkId: l } : null;
  } catch {
    return null;
  }
}
