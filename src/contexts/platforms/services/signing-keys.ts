import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { Platform, WebhookSigningKey } from '../entities';
import type { Environment } from '../entities/ApiToken';
import { newId } from '../../../domain/ids';
import { DomainError } from '../../../domain/errors';
import { decrypt, encrypt } from '../../../security/secrets';
import { generateSigningKeyPair } from '../../../security/webhook-signature';

export const ENVIRONMENTS: readonly Environment[] = ['SANDBOX', 'PRODUCTION'];

/** A key that signs (and verifies) now; oldest first, so the first one is what receivers hold longest. */
export interface ActiveSigningKey {
  id: string;
  publicKeyPem: string;
  createdAt: Date;
  expiresAt: Date | null;
  /** Unsealed only when asked for (signing), never for the public view. */
  privateKeyEncrypted: string;
}

function isActive(key: WebhookSigningKey, now: Date): boolean {
  return !key.expiresAt || key.expiresAt > now;
}

/** Generation 1 of the platform's key in each environment (no-op where it exists: two first uses may race). */
export async function ensureSigningKeys(
  em: EntityManager,
  masterKey: Buffer,
  platformId: string,
  environments: readonly Environment[] = ENVIRONMENTS,
): Promise<void> {
  for (const environment of environments) {
    const pair = generateSigningKeyPair();
    await em
      .createQueryBuilder(WebhookSigningKey)
      .insert({
        id: newId('WebhookSigningKey'),
        platformId,
        environment,
        generation: 1,
        publicKeyPem: pair.publicKeyPem,
        privateKeyEncrypted: encrypt(masterKey, pair.privateKeyPem),
        createdAt: new Date(),
        expiresAt: null,
      })
      .onConflict(['platformId', 'environment', 'generation'])
      .ignore()
      .execute();
  }
}

/**
 * The keys of the platforms (and environments) given that sign now, oldest first, created on
 * first use for platforms that have none yet: one query when they all exist.
 */
export async function activeSigningKeys(
  em: EntityManager,
  masterKey: Buffer,
  wanted: { platformId: string; environment: Environment }[],
  now = new Date(),
): Promise<Map<string, ActiveSigningKey[]>> {
  const keyOf = (platformId: string, environment: string) => `${platformId}/${environment}`;
  const read = async () => {
    const rows = await em.find(
      WebhookSigningKey,
      { $or: wanted.map(({ platformId, environment }) => ({ platformId, environment })) },
      { orderBy: { generation: 'asc' }, refresh: true },
    );
    const found = new Map<string, ActiveSigningKey[]>();
    for (const row of rows) {
      if (!isActive(row, now)) continue;
      const list = found.get(keyOf(row.platformId, row.environment)) ?? [];
      list.push({
        id: row.id,
        publicKeyPem: row.publicKeyPem,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt ?? null,
        privateKeyEncrypted: row.privateKeyEncrypted,
      });
      found.set(keyOf(row.platformId, row.environment), list);
    }
    return found;
  };
  if (wanted.length === 0) return new Map();
  let found = await read();
  const missing = wanted.filter(({ platformId, environment }) => !found.has(keyOf(platformId, environment)));
  if (missing.length > 0) {
    for (const { platformId, environment } of missing) await ensureSigningKeys(em, masterKey, platformId, [environment]);
    found = await read();
  }
  return new Map(wanted.map(({ platformId, environment }) => [keyOf(platformId, environment), found.get(keyOf(platformId, environment)) ?? []]));
}

export async function platformSigningKeys(
  em: EntityManager,
  masterKey: Buffer,
  platformId: string,
  environment: Environment,
  now = new Date(),
): Promise<ActiveSigningKey[]> {
  return (await activeSigningKeys(em, masterKey, [{ platformId, environment }], now)).get(`${platformId}/${environment}`)!;
}

export function unsealPrivateKey(masterKey: Buffer, key: ActiveSigningKey): string {
  return decrypt(masterKey, key.privateKeyEncrypted);
}

/** The longest overlap a rotation may ask for. */
export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 24 * 60 * 60;

/**
 * Rotates the platform's key in one environment: a new current key signs from now on, the
 * previous one keeps signing beside it until `now + overlapSeconds` (both verify meanwhile), and
 * any older key still in an earlier overlap expires now, so that at most two keys sign.
 */
export async function rotateSigningKey(
  em: EntityManager,
  masterKey: Buffer,
  platformId: string,
  environment: Environment,
  overlapSeconds: number,
  now = new Date(),
): Promise<void> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_ROTATION_OVERLAP_SECONDS) {
    throw DomainError.invalidInput([
      { field: 'overlapSeconds', constraint: 'range', message: `must be a whole number of seconds from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}` },
    ]);
  }
  await ensureSigningKeys(em, masterKey, platformId, [environment]);
  await em.transactional(async (tx) => {
    // Rotations of one platform take turns: each sees the generation the previous one made.
    await tx.findOneOrFail(Platform, { id: platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const keys = await tx.find(WebhookSigningKey, { platformId, environment }, { orderBy: { generation: 'desc' }, refresh: true });
    const [current, ...older] = keys;
    for (const key of older) if (isActive(key, now)) key.expiresAt = now;
    current!.expiresAt = new Date(now.getTime() + overlapSeconds * 1000);
    const pair = generateSigningKeyPair();
    tx.create(WebhookSigningKey, {
      id: newId('WebhookSigningKey'),
      platformId,
      environment,
      generation: current!.generation + 1,
      publicKeyPem: pair.publicKeyPem,
      privateKeyEncrypted: encrypt(masterKey, pair.privateKeyPem),
      createdAt: now,
      expiresAt: null,
    });
    await tx.flush();
  });
}
