import { randomBytes } from 'node:crypto';
import { decrypt, encrypt, hashSecret, newClientSecret, parseMasterKey, verifySecret, verifySecretOrDecoy } from '../../src/security/secrets';

describe('hashSecret / verifySecret', () => {
  const secret = 'sk_correct-horse-battery-staple';
  let stored: string;

  beforeAll(async () => {
    stored = await hashSecret(secret);
  });

  test('the hash has the form scrypt$N$r$p$salt$hash and does not contain the secret', () => {
    expect(stored.startsWith('scrypt$')).toBe(true);
    const parts = stored.split('$');
    expect(parts).toHaveLength(6);
    expect(parts.slice(1, 4)).toEqual(['32768', '8', '1']);
    expect(Buffer.from(parts[4]!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64url')).toHaveLength(32);
    expect(stored).not.toContain(secret);
  });

  test('the right secret verifies', async () => {
    await expect(verifySecret(secret, stored)).resolves.toBe(true);
  });

  test('a wrong secret does not', async () => {
    await expect(verifySecret(`${secret}x`, stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
  });

  test('two hashes of the same secret differ (random salt), and both verify', async () => {
    const again = await hashSecret(secret);
    expect(again).not.toBe(stored);
    expect(again.split('$')[4]).not.toBe(stored.split('$')[4]);
    await expect(verifySecret(secret, again)).resolves.toBe(true);
  });

  test('a stored value of another scheme or missing parts is refused', async () => {
    await expect(verifySecret(secret, stored.replace(/^scrypt/, 'bcrypt'))).resolves.toBe(false);
    await expect(verifySecret(secret, stored.split('$').slice(0, 5).join('$'))).resolves.toBe(false);
    await expect(verifySecret(secret, '')).resolves.toBe(false);
    await expect(verifySecret(secret, secret)).resolves.toBe(false);
  });

  test('a stored hash with one flipped bit is refused', async () => {
    const parts = stored.split('$');
    const hash = Buffer.from(parts[5]!, 'base64url');
    hash[0]! ^= 1;
    parts[5] = hash.toString('base64url');
    await expect(verifySecret(secret, parts.join('$'))).resolves.toBe(false);
  });

  // A corrupt stored hash that decodes to zero bytes must not match every secret.
  test('fails closed when the stored hash field decodes to nothing', async () => {
    const salt = stored.split('$')[4]!;
    await expect(verifySecret('any secret at all', `scrypt$32768$8$1$${salt}$!!!!`)).resolves.toBe(false);
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

describe('verifySecretOrDecoy', () => {
  test('checks against the stored hash when there is one, and refuses every secret when there is none', async () => {
    const stored = await hashSecret('sk_right');
    await expect(verifySecretOrDecoy('sk_right', stored)).resolves.toBe(true);
    await expect(verifySecretOrDecoy('sk_wrong', stored)).resolves.toBe(false);
    await expect(verifySecretOrDecoy('sk_right', undefined)).resolves.toBe(false);
    await expect(verifySecretOrDecoy('', undefined)).resolves.toBe(false);
  });
});
