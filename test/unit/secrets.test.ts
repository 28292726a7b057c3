import { createHmac, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { checkClientSecret, decrypt, encrypt, hashClientSecret, newClientSecret, parseMasterKey } from '../../src/security/secrets';

describe('hashClientSecret / checkClientSecret', () => {
  const masterKey = randomBytes(32);
  const secret = 'sk_correct-horse-battery-staple';
  const stored = hashClientSecret(masterKey, secret);

  test('the stored form is hmac-sha256$ and HMAC-SHA-256 under a key derived from the master key, never the secret', () => {
    const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'client-secret-hash-v1', 32));
    expect(stored).toBe(`hmac-sha256$${createHmac('sha256', key).update(secret).digest('base64url')}`);
    expect(stored).not.toContain(secret);
    // Not the master key itself: a hash under it would be another use of the same key.
    expect(stored).not.toBe(`hmac-sha256$${createHmac('sha256', masterKey).update(secret).digest('base64url')}`);
    // Deterministic for one key, different under another.
    expect(hashClientSecret(masterKey, secret)).toBe(stored);
    expect(hashClientSecret(randomBytes(32), secret)).not.toBe(stored);
  });

  test('the right secret matches; a wrong one, another key, or no stored hash do not', async () => {
    await expect(checkClientSecret(masterKey, secret, stored)).resolves.toEqual({ matches: true });
    await expect(checkClientSecret(masterKey, `${secret}x`, stored)).resolves.toEqual({ matches: false });
    await expect(checkClientSecret(masterKey, '', stored)).resolves.toEqual({ matches: false });
    await expect(checkClientSecret(randomBytes(32), secret, stored)).resolves.toEqual({ matches: false });
    await expect(checkClientSecret(masterKey, secret, undefined)).resolves.toEqual({ matches: false });
  });

  test('a corrupt or foreign stored value fails closed', async () => {
    for (const bad of [
      '',
      'hmac-sha256$',
      'hmac-sha256$!!!!',
      stored.slice(0, -2),
      stored.replace(/^hmac-sha256/, 'hmac-sha512'),
      secret,
      `bcrypt$${secret}`,
    ]) {
      await expect(checkClientSecret(masterKey, secret, bad)).resolves.toEqual({ matches: false });
    }
  });

  describe('hashes of the former scrypt format', () => {
    const salt = randomBytes(16);
    const scrypted = (s: string, n = 1 << 15) => scryptSync(s, salt, 32, { N: n, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const legacy = ['scrypt', 32768, 8, 1, salt.toString('base64url'), scrypted(secret).toString('base64url')].join('$');

    test('the right secret matches and comes back with its keyed hash; a wrong one does not', async () => {
      await expect(checkClientSecret(masterKey, secret, legacy)).resolves.toEqual({ matches: true, rehashed: stored });
      await expect(checkClientSecret(masterKey, `${secret}x`, legacy)).resolves.toEqual({ matches: false });
    });

    test('missing parts, a flipped bit or an empty hash fail closed', async () => {
      const parts = legacy.split('$');
      const flipped = Buffer.from(parts[5]!, 'base64url');
      flipped[0]! ^= 1;
      for (const bad of [
        parts.slice(0, 5).join('$'),
        [...parts.slice(0, 5), flipped.toString('base64url')].join('$'),
        `scrypt$32768$8$1$${parts[4]}$!!!!`,
        'scrypt$0$8$1$x$y',
      ]) {
        await expect(checkClientSecret(masterKey, secret, bad)).resolves.toEqual({ matches: false });
      }
    });
  });
});

describe('newClientSecret', () => {
  test('is sk_ plus 32 random bytes, base64url', () => {
    const a = newClientSecret();
    expect(a).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(3), 'base64url')).toHaveLength(32);
    expect(newClientSecret()).not.toBe(a);
  });
});

describe('encrypt / decrypt', () => {
  const key = randomBytes(32);

  test('round trip, including empty and non-ASCII text', () => {
    for (const text of ['-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n', '', 'héllo ₿ 🙂']) {
      const sealed = encrypt(key, text);
      expect(sealed.startsWith('v1.')).toBe(true);
      expect(sealed).not.toContain(text || '\u0000');
      expect(decrypt(key, sealed)).toBe(text);
    }
  });

  test('the same plaintext encrypts differently each time (random IV)', () => {
    expect(encrypt(key, 'same')).not.toBe(encrypt(key, 'same'));
  });

  test('a tampered ciphertext throws', () => {
    const [v, iv, tag, body] = encrypt(key, 'attack at dawn').split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0]! ^= 1;
    expect(() => decrypt(key, [v, iv, tag, bytes.toString('base64url')].join('.'))).toThrow();
  });

  test('a tampered tag or IV throws', () => {
    const [v, iv, tag, body] = encrypt(key, 'attack at dawn').split('.');
    const badTag = Buffer.from(tag!, 'base64url');
    badTag[15]! ^= 0x80;
    expect(() => decrypt(key, [v, iv, badTag.toString('base64url'), body].join('.'))).toThrow();
    const badIv = Buffer.from(iv!, 'base64url');
    badIv[0]! ^= 1;
    expect(() => decrypt(key, [v, badIv.toString('base64url'), tag, body].join('.'))).toThrow();
  });

  // A 4-byte tag would let whoever can write the ciphertext forge it in ~2^32 tries.
  test('refuses a truncated authentication tag', () => {
    const [v, iv, tag, body] = encrypt(key, 'attack at dawn').split('.');
    const shortTag = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => decrypt(key, [v, iv, shortTag, body].join('.'))).toThrow();
  });

  test('another key cannot decrypt', () => {
    const sealed = encrypt(key, 'secret');
    expect(() => decrypt(randomBytes(32), sealed)).toThrow();
  });

  test('an unknown format throws', () => {
    expect(() => decrypt(key, 'v2.a.b.c')).toThrow('unknown ciphertext format');
    expect(() => decrypt(key, 'v1.a.b')).toThrow('unknown ciphertext format');
    expect(() => decrypt(key, 'plain text')).toThrow('unknown ciphertext format');
  });
});

describe('parseMasterKey', () => {
  test('accepts 32 bytes of base64', () => {
    const raw = randomBytes(32);
    expect(parseMasterKey(raw.toString('base64')).equals(raw)).toBe(true);
  });

  test.each([
    ['16 bytes', randomBytes(16).toString('base64')],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 bytes', randomBytes(64).toString('base64')],
    ['32 bytes as hex', randomBytes(32).toString('hex')],
    ['empty', ''],
  ])('rejects %s', (_label, text) => {
    expect(() => parseMasterKey(text)).toThrow('MASTER_KEY must be 32 bytes');
  });
});
