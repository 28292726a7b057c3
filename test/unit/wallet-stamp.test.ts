import { p256 } from '@noble/curves/nist.js';
import { signedLegOf } from '../../src/contexts/wallet-auth/domain/signature-headers';
import { parseStamp, stampSignsPayload } from '../../src/contexts/wallet-auth/domain/stamp';
import type { DomainError } from '../../src/domain/errors';
import { newDeviceKey, stamp, stampOf } from '../support/wallet-client';

const PAYLOAD = '{"organizationId":"InternalAccount:1","parameters":{"requestHash":"ab"},"requestId":"Request:1","timestampMs":"1","type":"ACTIVITY_TYPE_X"}';

describe('wallet signature stamps', () => {
  test("a client's stamp parses and verifies over the exact payload, and over nothing else", () => {
    const key = newDeviceKey();
    const parsed = parseStamp(stamp(key, PAYLOAD));
    expect(parsed).toEqual({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: expect.stringMatching(/^30[0-9a-f]+$/) });
    expect(stampSignsPayload(parsed!, PAYLOAD)).toBe(true);
    expect(stampSignsPayload(parsed!, `${PAYLOAD} `)).toBe(false);
    expect(stampSignsPayload(parsed!, PAYLOAD.replace('"1"', '"2"'))).toBe(false);
  });

  test("another key's signature under this key's name does not verify", () => {
    const [mine, theirs] = [newDeviceKey(), newDeviceKey()];
    const forged = JSON.parse(Buffer.from(stamp(theirs, PAYLOAD), 'base64url').toString()) as Record<string, string>;
    const parsed = parseStamp(stampOf({ ...forged, publicKey: mine.publicKey }));
    expect(parsed).not.toBeNull();
    expect(stampSignsPayload(parsed!, PAYLOAD)).toBe(false);
  });

  test('a high-S signature (as WebCrypto may produce) is accepted', () => {
    const key = newDeviceKey();
    const low = p256.Signature.fromBytes(p256.sign(new TextEncoder().encode(PAYLOAD), key.privateKey, { prehash: true }));
    const high = new p256.Signature(low.r, p256.Point.CURVE().n - low.s);
    const parsed = parseStamp(
      stampOf({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: Buffer.from(high.toBytes('der')).toString('hex') }),
    );
    expect(stampSignsPayload(parsed!, PAYLOAD)).toBe(true);
  });

  test.each([
    ['not base64url', '!!!'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['a JSON array', stampOf([] as never)],
    ['another scheme', 'scheme'],
    ['an uncompressed key', 'uncompressed'],
    ['a key off the curve', 'offCurve'],
    ['a signature that is not DER', 'notDer'],
    ['a missing signature', 'noSignature'],
  ])('%s is malformed', (_name, variant) => {
    const key = newDeviceKey();
    const good = JSON.parse(Buffer.from(stamp(key, PAYLOAD), 'base64url').toString()) as Record<string, string>;
    const broken: Record<string, string | Record<string, unknown>> = {
      scheme: stampOf({ ...good, scheme: 'SIGNATURE_SCHEME_OTHER' }),
      uncompressed: stampOf({ ...good, publicKey: key.uncompressedPublicKey }),
      offCurve: stampOf({ ...good, publicKey: `02${'f'.repeat(64)}` }),
      notDer: stampOf({ ...good, signature: 'ab'.repeat(64) }),
      noSignature: stampOf({ publicKey: good.publicKey, scheme: good.scheme }),
    };
    const header = (broken[variant] as string | undefined) ?? variant;
    expect(parseStamp(header)).toBeNull();
  });
});

describe('signature headers', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
      return null;
    } catch (err) {
      return (err as DomainError).code;
    }
  };

  test('none is a first call; both are a signed retry', () => {
    expect(signedLegOf({})).toEqual({ leg: 'FIRST' });
    expect(signedLegOf({ signature: ' ', requestId: '' })).toEqual({ leg: 'FIRST' });
    expect(signedLegOf({ signature: 's', requestId: 'Request:1' })).toEqual({ leg: 'RETRY', signature: 's', requestId: 'Request:1' });
  });

  test('a signature without Request-Id is REQUEST_ID_MISSING; a Request-Id without signature is WALLET_SIGNATURE_MISSING', () => {
    expect(codeOf(() => signedLegOf({ signature: 's' }))).toBe('REQUEST_ID_MISSING');
    expect(codeOf(() => signedLegOf({ requestId: 'Request:1' }))).toBe('WALLET_SIGNATURE_MISSING');
  });
});
