import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const SCRYPT = { maxmem: 64 * 1024 * 1024 } as const;
const SCRYPT_KEY_LENGTH = 32;
const KEYED = 'hmac-sha256';
/** The label that makes the secret-hashing key a key of its own, never the master key itself. */
const CLIENT_SECRET_HASH_LABEL = 'client-secret-hash-v1';

function scryptAsync(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const hashKeys = new WeakMap<Buffer, Buffer>();

/** The key client secrets are hashed with: derived from the master key (HKDF-SHA-256) under its own label. */
function clientSecretHashKey(masterKey: Buffer): Buffer {
  let key = hashKeys.get(masterKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), CLIENT_SECRET_HASH_LABEL, 32));
    hashKeys.set(masterKey, key);
  }
  return key;
}

function keyedDigest(masterKey: Buffer, secret: string): Buffer {
  return createHmac('sha256', clientSecretHashKey(masterKey)).update(secret, 'utf8').digest();
}

/**
 * How a client secret is stored: `hmac-sha256$<HMAC-SHA-256 under a key derived from the master
 * key>`. Client secrets are 256 random bits, so no salt and no slow hash are needed (nothing to
 * brute-force offline), and a check costs microseconds; without the master key a leaked hash
 * cannot even be tested against a guess.
 */
export function hashClientSecret(masterKey: Buffer, secret: string): string {
  return `${KEYED}$${keyedDigest(masterKey, secret).toString('base64url')}`;
}

/** Stored by an earlier version: `scrypt$N$r$p$salt$hash`. Slow on purpose; checked until re-hashed. */
async function verifyScryptHash(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  // A corrupt row must fail closed: an empty expected hash would otherwise match anything.
  if (expected.length !== SCRYPT_KEY_LENGTH) return false;
  try {
    const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    });
    return timingSafeEqual(actual, expected);
  } catch {
    return false; // unusable parameters in the stored row
  }
}

/** Compares in constant time; a stored value of the wrong length (corrupt, or none) never matches. */
function keyedMatches(masterKey: Buffer, secret: string, stored: string | undefined): boolean {
  const actual = keyedDigest(masterKey, secret);
  const expected = stored?.startsWith(`${KEYED}$`) ? Buffer.from(stored.slice(KEYED.length + 1), 'base64url') : undefined;
  // No stored hash (an unknown token id): the same HMAC and comparison against zeros, so that the
  // answer takes as long as a wrong secret's.
  const against = expected?.length === actual.length ? expected : Buffer.alloc(actual.length);
  return timingSafeEqual(actual, against) && against === expected;
}

export interface SecretCheck {
  matches: boolean;
  /** Set when the secret matched a hash of an older format: the keyed hash to store instead. */
  rehashed?: string;
}

/** A hash of the former scrypt format: slow to check on purpose, until its token's next good check re-hashes it. */
export function isSlowLegacyHash(stored: string): boolean {
  return stored.startsWith('scrypt$');
}

/**
 * Checks a client secret against its stored hash, or, with none (an unknown token id), does the
 * same work and fails. A secret matching a hash of the former scrypt format comes back with its
 * keyed hash, to be stored in its place.
 */
export async function checkClientSecret(masterKey: Buffer, secret: string, stored: string | undefined): Promise<SecretCheck> {
  if (stored !== undefined && isSlowLegacyHash(stored)) {
    const matches = await verifyScryptHash(secret, stored);
    return matches ? { matches, rehashed: hashClientSecret(masterKey, secret) } : { matches };
  }
  return { matches: keyedMatches(masterKey, secret, stored) };
}

/** A fresh client secret: 32 random bytes, URL-safe. */
export function newClientSecret(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

/** AES-256-GCM with the service's master key: `v1.<iv>.<tag>.<ciphertext>`. */
export function encrypt(masterKey: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decrypt(masterKey: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export function parseMasterKey(text: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}
