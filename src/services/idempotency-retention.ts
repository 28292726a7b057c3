import type { MikroORM } from '@mikro-orm/postgresql';
import { IdempotencyRecord } from '../db/IdempotencyRecord';

/** How long a completed Idempotency-Key replays its response (Stripe's convention: a day). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Forgets completed idempotency records older than the retention period, so the table does not
 * grow forever. In-progress claims are left alone (they are taken over when stale). Money stays
 * safe after expiry: funding derives its workflow id from the key, and Temporal refuses a
 * second run of a finished workflow id.
 */
export async function pruneIdempotencyRecords(orm: MikroORM, retentionMs = IDEMPOTENCY_RETENTION_MS): Promise<number> {
  return orm.em.fork().nativeDelete(IdempotencyRecord, { state: 'COMPLETED', completedAt: { $lt: new Date(Date.now() - retentionMs) } });
}
