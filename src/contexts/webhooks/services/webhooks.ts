import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEvent } from '../entities';
import type { Environment } from '../../platforms';
import { newId } from '../../../domain/ids';
import { stringifyWithBigInt } from '../../../domain/json';

export interface NewWebhookEvent {
  /** Pass a derived id when the caller may retry (an activity), so the event is recorded once. */
  id?: string;
  platformId: string;
  environment: Environment;
  type: string;
  data: unknown;
}

/** Records an event with its final envelope bytes; returns the stored row (existing one on repeat). */
export async function recordWebhookEvent(em: EntityManager, input: NewWebhookEvent): Promise<WebhookEvent> {
  const id = input.id ?? newId('Webhook');
  const now = new Date();
  const payload = stringifyWithBigInt({ id, type: input.type, timestamp: now.toISOString(), data: input.data });
  const row = {
    id,
    platformId: input.platformId,
    environment: input.environment,
    type: input.type,
    payload,
    state: 'PENDING' as const,
    attempts: 0,
    lastResponseStatus: null,
    lastAttemptAt: null,
    createdAt: now,
  };
  // One statement: recorded now, or found recorded by an earlier try (ids derive from what they announce).
  const inserted = await em.createQueryBuilder(WebhookEvent).insert(row).onConflict('id').ignore().execute('run');
  if (inserted.affectedRows === 0) return em.findOneOrFail(WebhookEvent, { id });
  return em.create(WebhookEvent, row, { managed: true });
}

/**
 * Records several events in one statement; an event found recorded by an earlier try (ids derive
 * from what they announce) stays as it was. Returns their ids and types, in the order given.
 */
export async function recordWebhookEvents(em: EntityManager, inputs: (NewWebhookEvent & { id: string })[]): Promise<{ id: string; type: string }[]> {
  if (inputs.length === 0) return [];
  const now = new Date();
  const rows = inputs.map((input) => ({
    id: input.id,
    platformId: input.platformId,
    environment: input.environment,
    type: input.type,
    payload: stringifyWithBigInt({ id: input.id, type: input.type, timestamp: now.toISOString(), data: input.data }),
    state: 'PENDING' as const,
    attempts: 0,
    lastResponseStatus: null,
    lastAttemptAt: null,
    createdAt: now,
  }));
  await em.createQueryBuilder(WebhookEvent).insert(rows).onConflict('id').ignore().execute('run');
  return inputs.map(({ id, type }) => ({ id, type }));
}

/** Closes an event no attempt was made for (FAILED, never sent): one whose single attempt is over without it, such as an approval call. */
export async function closeUnsentEvent(em: EntityManager, eventId: string): Promise<void> {
  await em.nativeUpdate(WebhookEvent, { id: eventId, state: 'PENDING', attempts: 0 }, { state: 'FAILED' });
}
