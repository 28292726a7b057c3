import { createPrivateKey, type KeyObject } from 'node:crypto';
import { Platform } from '../../src/contexts/platforms/entities';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookDeliveryAttempt, WebhookEvent } from '../../src/contexts/webhooks/entities';
import { classifyResponse, type DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import { SIGNATURE_HEADER, SIGNATURE_HEADER_ALIAS, signWebhookBodyWithKeys } from '../../src/security/webhook-signature';
import { activeSigningKeys, unsealPrivateKey, type ActiveSigningKey } from '../../src/contexts/platforms/services/signing-keys';
import type { ActivityDeps } from '../deps';
import { aliasedColumns, mapAliased } from '../../src/db/joined-rows';
import { countWebhookAttempt } from '../metrics';
import { RESPONSE_BODY_CAP } from './webhook-sender';
import { BREAKER_COLUMNS, BREAKER_JOIN, EndpointBreakers } from '../../src/contexts/webhooks/services/endpoint-breakers';
import { DELIVERY_BREAKER } from '../../src/contexts/webhooks/domain/delivery-breaker';

/** How long the approval call of an incoming payment waits for the platform's answer (the reference asks for an answer within 5 s). */
export const APPROVAL_CALL_TIMEOUT_MS = 5_000;
/** How much of the approval call's answer is read: enough for receiverCustomerInfo, never an unbounded body. */
const APPROVAL_ANSWER_CAP = 16_384;

export type AttemptOutcome = DeliveryOutcome & { url?: string; responseBody?: string; alreadyDelivered?: true };

/**
 * The events' counters and their attempts' rows in one statement (the insert rides on the update
 * as a data-modifying CTE): an attempt is never counted without its row, nor the reverse, and the
 * first attempts of a payment's events stay one write.
 */
async function saveAttempts(em: EntityManager, events: WebhookEvent[], attempts: WebhookDeliveryAttempt[]): Promise<void> {
  if (events.length === 0) return;
  const counters = events.map((e) => ({
    id: e.id,
    state: e.state,
    attempts: e.attempts,
    last_response_status: e.lastResponseStatus ?? null,
    last_attempt_at: e.lastAttemptAt ?? null,
    held_back_at: e.heldBackAt ?? null,
  }));
  const rows = attempts.map((a) => ({
    id: a.id,
    event_id: a.eventId,
    attempted_at: a.attemptedAt,
    response_status: a.responseStatus ?? null,
    duration_ms: a.durationMs,
    error: a.error ?? null,
    outcome: a.outcome,
  }));
  await em.getConnection().execute(
    `with attempted as (
       insert into webhook_delivery_attempts (id, event_id, attempted_at, response_status, duration_ms, error, outcome)
       select id, event_id, attempted_at, response_status, duration_ms, error, outcome
       from jsonb_to_recordset(?::jsonb) as a(id text, event_id text, attempted_at timestamptz, response_status integer, duration_ms integer, error text, outcome text)
     )
     update webhook_events w
        set state = c.state, attempts = c.attempts, last_response_status = c.last_response_status, last_attempt_at = c.last_attempt_at, held_back_at = c.held_back_at
       from jsonb_to_recordset(?::jsonb) as c(id text, state text, attempts integer, last_response_status integer, last_attempt_at timestamptz, held_back_at timestamptz)
      where w.id = c.id`,
    [JSON.stringify(rows), JSON.stringify(counters)],
    'run',
  );
}

export function webhookActivities({
  orm,
  masterKey,
  webhookSender,
  webhookTimeoutMs = 10_000,
  approvalCallTimeoutMs = APPROVAL_CALL_TIMEOUT_MS,
  metrics,
  webhookBreaker = DELIVERY_BREAKER,
}: ActivityDeps) {
  // Keys never change once made (a rotation makes a new one): each is unsealed and parsed once, not per event.
  const parsedKeys = new Map<string, KeyObject>();
  function privateKey(key: ActiveSigningKey): KeyObject {
    let parsed = parsedKeys.get(key.id);
    if (!parsed) {
      if (parsedKeys.size >= 10_000) parsedKeys.clear();
      parsed = createPrivateKey(unsealPrivateKey(masterKey, key));
      parsedKeys.set(key.id, parsed);
    }
    return parsed;
  }

  /**
   * Posts one recorded event to its platform's endpoint and records the attempt on it: its counters,
   * and a row of its own (time, status, duration, outcome) handed to `record`; the caller writes both at once.
   */
  async function post(
    record: (attempt: WebhookDeliveryAttempt) => void,
    event: WebhookEvent,
    platform: Platform,
    keys: ActiveSigningKey[],
    call: { timeoutMs: number; responseCap: number } = { timeoutMs: webhookTimeoutMs, responseCap: RESPONSE_BODY_CAP },
  ): Promise<AttemptOutcome & { fullAnswer?: string }> {
    const url = platform.webhookEndpoint;
    let outcome: AttemptOutcome;
    let status: number | null = null;
    const startedAt = new Date();
    if (!url) {
      outcome = { kind: 'NO_ENDPOINT' };
    } else {
      // Signed with the keys of the event's own platform (and environment) only.
      const signature = signWebhookBodyWithKeys(
        keys.map((key) => ({ id: key.id, privateKey: privateKey(key) })),
        event.payload,
      );
      const res = await webhookSender.post(
        url,
        event.payload,
        { [SIGNATURE_HEADER]: signature, [SIGNATURE_HEADER_ALIAS]: signature, 'x-svc-webhook-id': event.id },
        call.timeoutMs,
        event.environment,
        call.responseCap,
      );
      status = res.status;
      const answer = res.body.slice(0, RESPONSE_BODY_CAP);
      outcome = res.status === null ? { kind: 'UNREACHABLE', error: res.error ?? 'no response' } : classifyResponse(res.status, answer);
      outcome = { ...outcome, url, responseBody: answer, ...(call.responseCap > RESPONSE_BODY_CAP ? { fullAnswer: res.body } : {}) };
    }
    event.attempts += 1;
    event.lastAttemptAt = new Date();
    event.lastResponseStatus = status;
    if (outcome.kind === 'DELIVERED' || outcome.kind === 'DUPLICATE') event.state = 'DELIVERED';
    record({
      id: randomUUID(),
      eventId: event.id,
      attemptedAt: startedAt,
      responseStatus: status,
      durationMs: event.lastAttemptAt.getTime() - startedAt.getTime(),
      error: outcome.kind === 'UNREACHABLE' ? outcome.error : outcome.kind === 'NO_ENDPOINT' ? 'no webhook endpoint is configured' : null,
      outcome: outcome.kind,
    });
    return outcome;
  }

  /**
   * One attempt for each of the events, in the order given (a receiver sees a payment's events in
   * the order they happened): the events with their platforms and their endpoints' breakers read
   * in one statement, their signing keys in another (unless none is posted), the attempts recorded
   * in one flush and each changed breaker in one statement. With
   * `skipDelivered`, an event the receiver accepted already is not posted again. An endpoint whose
   * breaker is open is not posted to (the outcome is PAUSED), except by TEST events: the
   * platform's own check of its endpoint.
   */
  async function attempts(eventIds: string[], options: { skipDelivered?: boolean } = {}): Promise<{ eventId: string; outcome: AttemptOutcome }[]> {
    if (eventIds.length === 0) return [];
    const em = orm.em.fork();
    const rows = await em
      .getConnection()
      .execute<Record<string, unknown>[]>(
        `select ${aliasedColumns(em, WebhookEvent, 'w')}, ${aliasedColumns(em, Platform, 'p')}, ${BREAKER_COLUMNS} from webhook_events w join platforms p on p.id = w.platform_id ${BREAKER_JOIN} where w.id = any(array[?]::text[])`,
        [eventIds],
      );
    const events = new Map<string, WebhookEvent>();
    const platforms = new Map<string, Platform>();
    const breakers = new EndpointBreakers(em, webhookBreaker);
    for (const row of rows) {
      const event = mapAliased(em, WebhookEvent, row, 'w')!;
      const platform = mapAliased(em, Platform, row, 'p')!;
      events.set(event.id, event);
      platforms.set(event.platformId, platform);
      if (platform.webhookEndpoint) breakers.load(platform.id, platform.webhookEndpoint, row);
    }
    const pairs = new Map([...events.values()].map((e) => [`${e.platformId}/${e.environment}`, { platformId: e.platformId, environment: e.environment }]));
    // Read when the first event is posted: a call whose events are all held back by their breakers costs one statement.
    let keys: Awaited<ReturnType<typeof activeSigningKeys>> | undefined;
    const outcomes: { eventId: string; outcome: AttemptOutcome }[] = [];
    let deliveredNow = 0;
    const attemptRows: WebhookDeliveryAttempt[] = [];
    const changed = new Set<WebhookEvent>();
    for (const eventId of eventIds) {
      const event = events.get(eventId);
      if (!event) throw new Error(`webhook event ${eventId} is not recorded`);
      const wasDelivered = event.state === 'DELIVERED';
      if (wasDelivered && options.skipDelivered) {
        outcomes.push({ eventId, outcome: { kind: 'DELIVERED', status: event.lastResponseStatus ?? 200, alreadyDelivered: true } });
        continue;
      }
      const platform = platforms.get(event.platformId)!;
      const url = event.type === 'TEST' ? null : platform.webhookEndpoint;
      const admitted = url ? await breakers.admit(platform.id, url) : { post: true as const, probe: false };
      if (!admitted.post) {
        // Not an attempt (its count stays). A never-attempted event is marked once, so that the sweep for stranded
        // deliveries (never attempted, no workflow) passes it over.
        if (event.attempts === 0 && !event.heldBackAt) {
          event.heldBackAt = new Date();
          changed.add(event);
        }
        countWebhookAttempt(metrics, admitted.outcome);
        outcomes.push({ eventId, outcome: admitted.outcome });
        continue;
      }
      keys ??= await activeSigningKeys(em, masterKey, [...pairs.values()]);
      changed.add(event);
      const outcome = await post((a) => attemptRows.push(a), event, platform, keys.get(`${event.platformId}/${event.environment}`)!);
      countWebhookAttempt(metrics, outcome);
      if (platform.webhookEndpoint) breakers.record(platform.id, platform.webhookEndpoint, outcome, admitted.probe);
      if (!wasDelivered && event.state === 'DELIVERED') deliveredNow++;
      outcomes.push({ eventId, outcome });
    }
    await saveAttempts(em, [...changed], attemptRows);
    await breakers.save();
    // Counted once recorded: a repeat of this step finds those events delivered already.
    if (deliveredNow > 0) metrics?.webhookDeliveries.inc({ outcome: 'delivered' }, deliveredNow);
    return outcomes;
  }

  return {
    /**
     * One delivery attempt of a recorded event, to the platform's current endpoint. Never
     * throws for receiver problems: the outcome is returned so the workflow decides about
     * retrying and every attempt shows up in its history.
     */
    async deliverWebhook(input: { eventId: string }): Promise<AttemptOutcome> {
      return (await attempts([input.eventId]))[0]!.outcome;
    },

    /**
     * First attempts for the events a workflow just recorded, one after the other, in one
     * (local) activity: on the success path this is all the delivery costs. The workflow hands
     * each event that was not accepted to a webhookDelivery workflow, which retries it. A step
     * that runs again (its workflow task was lost after it ran: a burst of updates, a crash)
     * reports the same events; those its first run delivered are not sent twice.
     */
    async deliverWebhooks(input: { eventIds: string[] }): Promise<{ eventId: string; outcome: AttemptOutcome }[]> {
      return attempts(input.eventIds, { skipDelivered: true });
    },

    /**
     * The approval call of an incoming payment: ONE attempt of its recorded INCOMING_PAYMENT.PENDING
     * event, signed like every delivery, with a short time-out, never retried (the event is left
     * DELIVERED or FAILED, so no sweeper sends it again). Returns the platform's answer, whose
     * status and body decide the payment; `status` null: no HTTP answer; `noEndpoint`: nobody to ask.
     */
    async callApprovalWebhook(input: { eventId: string }): Promise<{ status: number | null; body: string; noEndpoint?: true }> {
      const em = orm.em.fork();
      const event = await em.findOneOrFail(WebhookEvent, { id: input.eventId });
      const platform = await em.findOneOrFail(Platform, { id: event.platformId });
      const keys = (await activeSigningKeys(em, masterKey, [{ platformId: event.platformId, environment: event.environment }])).get(
        `${event.platformId}/${event.environment}`,
      )!;
      const outcome = await post((a) => em.persist(em.create(WebhookDeliveryAttempt, a)), event, platform, keys, {
        timeoutMs: approvalCallTimeoutMs,
        responseCap: APPROVAL_ANSWER_CAP,
      });
      countWebhookAttempt(metrics, outcome);
      if (event.state !== 'DELIVERED') event.state = 'FAILED';
      await em.flush();
      if (outcome.kind === 'NO_ENDPOINT') return { status: null, body: '', noEndpoint: true };
      return { status: 'status' in outcome ? outcome.status : null, body: outcome.fullAnswer ?? outcome.responseBody ?? '' };
    },

    /** Marks an event that ran out of retries, so it can be found and replayed by an operator. */
    async markWebhookFailed(input: { eventId: string }): Promise<void> {
      const em = orm.em.fork();
      const marked = await em.nativeUpdate(WebhookEvent, { id: input.eventId, state: 'PENDING' }, { state: 'FAILED' });
      if (marked > 0) metrics?.webhookDeliveries.inc({ outcome: 'failed' });
    },
  };
}
