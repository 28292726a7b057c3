import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const SCRYPT = { N: 1 << 15, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 } as const;

function scryptAsync(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A slow, salted hash for client secrets: `scrypt$N$r$p$salt$hash`. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  // A corrupt row must fail closed: an empty expected hash would otherwise match anything.
  if (expected.length !== SCRYPT.keyLength) return false;
  try {
    const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
    return timingSafeEqual(actual, expected);
  } catch {
    return false; // unusable parameters in the stored row
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * verifySecret against the stored hash, or, when there is none (an unknown token id), against a
 * decoy hash of the same cost that nothing matches: an unknown id then takes as long to refuse
 * as a wrong secret, so response times do not tell which token ids exist.
 */
export async function verifySecretOrDecoy(secret: string, stored: string | undefined): Promise<boolean> {
  if (stored !== undefined) return verifySecret(secret, stored);
  decoyHash ??= hashSecret(randomBytes(32).toString('base64url'));
  await verifySecret(secret, await decoyHash);
  return false;
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
