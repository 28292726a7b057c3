import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { decodeCursor, toPage, type Page } from '../../../domain/pagination';
import { DomainError } from '../../../domain/errors';
import type { Caller } from '../../platforms';
import { startWebhookDelivery, WebhookEvent, type WebhookDeliveryState } from '../../webhooks';

export interface WebhookEventFilter {
  limit: number;
  cursor?: string;
  type?: string;
  state?: WebhookDeliveryState;
  /** A transaction, customer or other resource id the event's data names (data.id, data.transactionId, data.customerId …). */
  resourceId?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** The data fields an event names a resource by: its own id, or the transaction / customer / account it is about. */
const RESOURCE_FIELDS = ['id', 'transactionId', 'customerId', 'accountId', 'internalAccountId', 'quoteId'];

/** The resource an event is about: the first of RESOURCE_FIELDS its payload's data names (its own id first). */
const RESOURCE_ID_SQL = `coalesce(${RESOURCE_FIELDS.map((field) => `payload::jsonb -> 'data' ->> '${field}'`).join(', ')}) as resource_id`;

interface EventRow {
  id: string;
  type: string;
  state: WebhookDeliveryState;
  attempts: number;
  last_response_status: number | null;
  last_attempt_at: Date | null;
  created_at: Date;
  resource_id: string | null;
  payload?: string;
}

const listView = (row: EventRow) => ({
  id: row.id,
  type: row.type,
  resourceId: row.resource_id,
  state: row.state,
  attempts: row.attempts,
  lastResponseStatus: row.last_response_status,
  lastAttemptAt: row.last_attempt_at ? new Date(row.last_attempt_at).toISOString() : null,
  createdAt: new Date(row.created_at).toISOString(),
});

export type WebhookEventView = ReturnType<typeof listView>;

/**
 * The caller's platform's webhook events in its token's environment, newest first, by keyset on
 * (created_at, id) over the platform's index; a resource filter reads the payload's data.
 */
export async function listWebhookEvents(em: EntityManager, caller: Caller, q: WebhookEventFilter): Promise<Page<WebhookEventView>> {
  const where: string[] = ['platform_id = ?', 'environment = ?'];
  const params: unknown[] = [caller.platformId, caller.environment];
  const condition = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (q.type) condition('type = ?', q.type);
  if (q.state) condition('state = ?', q.state);
  if (q.createdAfter) condition('created_at >= ?', new Date(q.createdAfter));
  if (q.createdBefore) condition('created_at <= ?', new Date(q.createdBefore));
  if (q.resourceId) {
    where.push(`(${RESOURCE_FIELDS.map(() => `payload::jsonb -> 'data' ->> ? = ?`).join(' or ')})`);
    for (const field of RESOURCE_FIELDS) params.push(field, q.resourceId);
  }
  const filter = where.join(' and ');
  const after = q.cursor ? decodeCursor(q.cursor, 'desc') : null;
  const keyset = after ? ' and (created_at, id) < (?, ?)' : '';
  const connection = em.getConnection();
  const [rows, counted] = await Promise.all([
    connection.execute<EventRow[]>(
      `select id, type, state, attempts, last_response_status, last_attempt_at, created_at, ${RESOURCE_ID_SQL} from webhook_events where ${filter}${keyset} order by created_at desc, id desc limit ?`,
      [...params, ...(after ? [new Date(after.createdAt), after.id] : []), q.limit + 1],
    ),
    connection.execute<{ n: string }[]>(`select count(*) as n from webhook_events where ${filter}`, params),
  ]);
  return toPage(
    rows.map((r) => ({ ...r, createdAt: new Date(r.created_at) })),
    q.limit,
    Number(counted[0]!.n),
    listView,
  );
}

/** One event of the caller's platform with the exact body sent and every attempt, oldest first; 404 for anyone else's. */
export async function getWebhookEvent(em: EntityManager, caller: Caller, eventId: string) {
  const connection = em.getConnection();
  const [event] = await connection.execute<EventRow[]>(
    `select id, type, state, attempts, last_response_status, last_attempt_at, created_at, ${RESOURCE_ID_SQL}, payload from webhook_events where id = ? and platform_id = ? and environment = ?`,
    [eventId, caller.platformId, caller.environment],
  );
  if (!event) throw DomainError.notFound('Webhook event');
  const attempts = await connection.execute<
    { attempted_at: Date; response_status: number | null; duration_ms: number; error: string | null; outcome: string }[]
  >('select attempted_at, response_status, duration_ms, error, outcome from webhook_delivery_attempts where event_id = ? order by attempted_at, id', [eventId]);
  return {
    ...listView(event),
    payload: event.payload!,
    deliveryAttempts: attempts.map((a) => ({
      attemptedAt: new Date(a.attempted_at).toISOString(),
      responseStatus: a.response_status,
      durationMs: a.duration_ms,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}

/**
 * Delivers one of the caller's platform's events again, through its delivery workflow (id = the
 * event id: a delivery still retrying is joined rather than doubled). A FAILED event is PENDING
 * again while it is retried; the same bytes are sent, so the receiver deduplicates on the id.
 */
export async function resendWebhookEvent(deps: { temporal: Client; taskQueue?: string }, em: EntityManager, caller: Caller, eventId: string) {
  const event = await em.findOne(WebhookEvent, { id: eventId, platformId: caller.platformId, environment: caller.environment });
  if (!event) throw DomainError.notFound('Webhook event');
  if (event.state === 'FAILED') await em.nativeUpdate(WebhookEvent, { id: event.id, state: 'FAILED' }, { state: 'PENDING' });
  await startWebhookDelivery(deps.temporal, event, { taskQueue: deps.taskQueue });
  return getWebhookEvent(em, caller, eventId);
}
