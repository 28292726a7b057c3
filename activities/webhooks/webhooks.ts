import type { EntityManager } from '@mikro-orm/postgresql';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Environment } from '../../src/contexts/platforms/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { classifyResponse, type DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import { SIGNATURE_HEADER, SIGNATURE_HEADER_ALIAS, signWebhookBody } from '../../src/contexts/webhooks/domain/webhook-signature';
import { signingKey } from '../../src/contexts/platforms/services/signing-keys';
import type { ActivityDeps } from '../deps';
import { countWebhookAttempt } from '../metrics';
import { RESPONSE_BODY_CAP } from './webhook-sender';

export type AttemptOutcome = DeliveryOutcome & { url?: string; responseBody?: string };

export function webhookActivities({ orm, masterKey, webhookSender, webhookTimeoutMs = 10_000, metrics }: ActivityDeps) {
  // The signing key, unsealed and parsed once per environment for a minute, not per event.
  const keys = new Map<string, { key: KeyObject; until: number }>();
  async function privateKey(em: EntityManager, environment: Environment): Promise<KeyObject> {
    const cached = keys.get(environment);
    if (cached && cached.until > Date.now()) return cached.key;
    const key = createPrivateKey((await signingKey(em, masterKey, environment)).privateKeyPem);
    keys.set(environment, { key, until: Date.now() + 60_000 });
    return key;
  }

  /** Posts one recorded event to its platform's endpoint and records the attempt on it (flushed by the caller). */
  async function post(em: EntityManager, event: WebhookEvent, platform: Platform): Promise<AttemptOutcome> {
    const url = platform.webhookEndpoint;
    let outcome: AttemptOutcome;
    let status: number | null = null;
    if (!url) {
      outcome = { kind: 'NO_ENDPOINT' };
    } else {
      const signature = signWebhookBody(await privateKey(em, event.environment), event.payload);
      const res = await webhookSender.post(url, event.payload, { [SIGNATURE_HEADER]: signature, [SIGNATURE_HEADER_ALIAS]: signature, 'x-svc-webhook-id': event.id }, webhookTimeoutMs, event.environment);
      status = res.status;
      outcome = res.status === null ? { kind: 'UNREACHABLE', error: res.error ?? 'no response' } : classifyResponse(res.status, res.body.slice(0, RESPONSE_BODY_CAP));
      outcome = { ...outcome, url, responseBody: res.body.slice(0, RESPONSE_BODY_CAP) };
    }
    event.attempts += 1;
    event.lastAttemptAt = new Date();
    event.lastResponseStatus = status;
    if (outcome.kind === 'DELIVERED' || outcome.kind === 'DUPLICATE') event.state = 'DELIVERED';
    return outcome;
  }

  /**
   * One attempt for each of the events, in the order given (a receiver sees a payment's events in
   * the order they happened): the events and their platforms read in two queries, the attempts
   * recorded in one flush.
   */
  async function attempts(eventIds: string[]): Promise<{ eventId: string; outcome: AttemptOutcome }[]> {
    const em = orm.em.fork();
    const events = new Map((await em.find(WebhookEvent, { id: { $in: eventIds } })).map((e) => [e.id, e]));
    const platforms = new Map((await em.find(Platform, { id: { $in: [...new Set([...events.values()].map((e) => e.platformId))] } })).map((p) => [p.id, p]));
    const outcomes: { eventId: string; outcome: AttemptOutcome }[] = [];
    let deliveredNow = 0;
    for (const eventId of eventIds) {
      const event = events.get(eventId);
      if (!event) throw new Error(`webhook event ${eventId} is not recorded`);
      const wasDelivered = event.state === 'DELIVERED';
      const outcome = await post(em, event, platforms.get(event.platformId)!);
      countWebhookAttempt(metrics, outcome);
      if (!wasDelivered && event.state === 'DELIVERED') deliveredNow++;
      outcomes.push({ eventId, outcome });
    }
    await em.flush();
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
     * each event that was not accepted to a webhookDelivery workflow, which retries it.
     */
    async deliverWebhooks(input: { eventIds: string[] }): Promise<{ eventId: string; outcome: AttemptOutcome }[]> {
      return attempts(input.eventIds);
    },

    /** Marks an event that ran out of retries, so it can be found and replayed by an operator. */
    async markWebhookFailed(input: { eventId: string }): Promise<void> {
      const em = orm.em.fork();
      const marked = await em.nativeUpdate(WebhookEvent, { id: input.eventId, state: 'PENDING' }, { state: 'FAILED' });
      if (marked > 0) metrics?.webhookDeliveries.inc({ outcome: 'failed' });
    },
  };
}
