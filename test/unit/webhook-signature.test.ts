import { generateSigningKeyPair, signWebhookBody, signWebhookBodyWithKeys, verifyWebhookSignature } from '../../src/security/webhook-signature';

describe('webhook signatures', () => {
  const keys = generateSigningKeyPair();
  const other = generateSigningKeyPair();
  // Raw text as sent: the amount is written exactly (no JS number round trip).
  const body = '{"id":"Webhook:1","type":"INCOMING_PAYMENT.COMPLETED","amount":9007199254740993}';

  test('key pair is PEM', () => {
    expect(keys.publicKeyPem).toContain('-----BEGIN PUBLIC KEY-----');
    expect(keys.privateKeyPem).toContain('-----BEGIN PRIVATE KEY-----');
  });

  test('the header is {"v":"1","s":<base64>} and verifies against the body', () => {
    const header = signWebhookBody(keys.privateKeyPem, body);
    const parsed = JSON.parse(header) as { v: string; s: string };
    expect(Object.keys(parsed)).toEqual(['v', 's']);
    expect(parsed.v).toBe('1');
    expect(parsed.s).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    // DER-encoded ECDSA P-256: a SEQUENCE of two INTEGERs, 8 to 72 bytes.
    const der = Buffer.from(parsed.s, 'base64');
    expect(der[0]).toBe(0x30);
    expect(der.length).toBeLessThanOrEqual(72);
    expect(verifyWebhookSignature(keys.publicKeyPem, body, header)).toBe(true);
  });

  test('verifies a Buffer body and a header with surrounding whitespace', () => {
    const header = signWebhookBody(keys.privateKeyPem, body);
    expect(verifyWebhookSignature(keys.publicKeyPem, Buffer.from(body, 'utf8'), `  ${header}\n`)).toBe(true);
  });

  test('accepts the bare base64 form', () => {
    const { s } = JSON.parse(signWebhookBody(keys.privateKeyPem, body)) as { s: string };
    expect(verifyWebhookSignature(keys.publicKeyPem, body, s)).toBe(true);
  });

  test('fails for a modified body, even by one byte or whitespace', () => {
    const header = signWebhookBody(keys.privateKeyPem, body);
    const changed = body.replace('9007199254740993', '9007199254740994');
    expect(changed).not.toBe(body);
    expect(verifyWebhookSignature(keys.publicKeyPem, changed, header)).toBe(false);
    expect(verifyWebhookSignature(keys.publicKeyPem, `${body} `, header)).toBe(false);
    expect(verifyWebhookSignature(keys.publicKeyPem, JSON.stringify(JSON.parse(body), null, 2), header)).toBe(false);
  });

  test('fails for a different key', () => {
    const header = signWebhookBody(keys.privateKeyPem, body);
    expect(verifyWebhookSignature(other.publicKeyPem, body, header)).toBe(false);
    const forged = signWebhookBody(other.privateKeyPem, body);
    expect(verifyWebhookSignature(keys.publicKeyPem, body, forged)).toBe(false);
  });

  test('fails for a signature of another body', () => {
    const header = signWebhookBody(keys.privateKeyPem, '{"id":"Webhook:2"}');
    expect(verifyWebhookSignature(keys.publicKeyPem, body, header)).toBe(false);
  });

  test.each([
    ['empty', ''],
    ['garbage text', 'not a signature'],
    ['broken JSON', '{"v":"1","s":'],
    ['JSON without s', '{"v":"1"}'],
    ['JSON with a non-string s', '{"v":"1","s":123}'],
    ['JSON with garbage s', '{"v":"1","s":"AAAA"}'],
    ['JSON null', 'null'],
    ['base64 of random bytes', Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')],
  ])('fails for a garbage header: %s', (_label, header) => {
    expect(verifyWebhookSignature(keys.publicKeyPem, body, header)).toBe(false);
  });

  test('fails (without throwing) for a malformed public key', () => {
    const header = signWebhookBody(keys.privateKeyPem, body);
    expect(verifyWebhookSignature('not a pem', body, header)).toBe(false);
  });

  describe('several keys (a rotation overlap)', () => {
    const header = () =>
      signWebhookBodyWithKeys(
        [
          { id: 'old', privateKey: keys.privateKeyPem },
          { id: 'new', privateKey: other.privateKeyPem },
        ],
        body,
      );

    test('a receiver holding either key verifies; a third key does not', () => {
      expect(verifyWebhookSignature(keys.publicKeyPem, body, header())).toBe(true);
      expect(verifyWebhookSignature(other.publicKeyPem, body, header())).toBe(true);
      expect(verifyWebhookSignature(generateSigningKeyPair().publicKeyPem, body, header())).toBe(false);
      expect(verifyWebhookSignature(other.publicKeyPem, `${body} `, header())).toBe(false);
    });

    test("`s` stays the oldest key's signature, for receivers that read only `s`", () => {
      const parsed = JSON.parse(header()) as { v: string; s: string; sigs: { kid: string; s: string }[] };
      expect(parsed.v).toBe('1');
      expect(verifyWebhookSignature(keys.publicKeyPem, body, parsed.s)).toBe(true);
      expect(parsed.sigs.map((x) => x.kid)).toEqual(['old', 'new']);
      expect(verifyWebhookSignature(other.publicKeyPem, body, parsed.sigs[1]!.s)).toBe(true);
    });

    test('one key gives exactly the single-key header', () => {
      expect(Object.keys(JSON.parse(signWebhookBodyWithKeys([{ id: 'only', privateKey: keys.privateKeyPem }], body)) as object)).toEqual(['v', 's']);
    });

    test('garbage in `sigs` is ignored, not thrown on', () => {
      const { s } = JSON.parse(signWebhookBody(other.privateKeyPem, body)) as { s: string };
      for (const sigs of [null, 'x', [null], [1], [{ s: 5 }], [{}]])
        expect(verifyWebhookSignature(other.publicKeyPem, body, JSON.stringify({ v: '1', s: 'AAAA', sigs }))).toBe(false);
      expect(verifyWebhookSignature(other.publicKeyPem, body, JSON.stringify({ v: '1', s: 'AAAA', sigs: [{}, { s }] }))).toBe(true);
    });
  });
});
