import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { Platform, type Caller } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { recordWebhookEvent } from './webhooks';
import { startWebhookDelivery } from '../starters/webhook-delivery';

/** What a test delivery needs of the API's dependencies (ApiDeps has them). */
export interface TestWebhookDeps {
  orm: MikroORM;
  temporal: Client;
  taskQueue?: string;
}

/** What the caller is told of an attempt that got no HTTP answer, whatever the reason. */
export const NOT_REACHED = 'no HTTP answer: the endpoint could not be reached, or is not an allowed destination';

/**
 * Sends a TEST event through the same delivery workflow as every other event, with a single
 * attempt, and reports what the endpoint answered.
 */
export async function sendTestWebhook(deps: TestWebhookDeps, caller: Caller, options: { wait: boolean }) {
  const em = deps.orm.em.fork();
  const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
  if (!platform.webhookEndpoint) {
    throw new DomainError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured; set webhookEndpoint with PATCH /config');
  }
  const event = await recordWebhookEvent(em, { platformId: platform.id, environment: caller.environment, type: 'TEST', data: {} });
  const handle = await startWebhookDelivery(deps.temporal, event, { taskQueue: deps.taskQueue, singleAttempt: true });
  if (!options.wait) return undefined;
  const result = await handle.result();
  const outcome = result.lastOutcome as typeof result.lastOutcome & { url?: string; responseBody?: string };
  const responseStatus = 'status' in outcome ? outcome.status : null;
  if (!result.delivered) {
    // Without an HTTP answer the caller learns no more than that: a destination the policy refused
    // and one that did not answer read the same, so internal host names cannot be told apart by
    // what they resolve to. The reason stays in the delivery's workflow history for support staff.
    throw new DomainError('WEBHOOK_DELIVERY_ERROR', `The webhook endpoint did not accept the test event (${responseStatus ?? NOT_REACHED})`, {
      url: platform.webhookEndpoint,
      response_status: responseStatus,
      response_body: outcome.responseBody ?? null,
      responseStatus,
      responseBody: outcome.responseBody ?? null,
    });
  }
  // Delivered is an HTTP answer (2xx, or 409 for a duplicate): it always has a status.
  if (responseStatus === null) throw DomainError.internal('The test delivery reported success without an HTTP status');
  const responseBody = outcome.responseBody ?? '';
  // The reference's names, and the earlier camelCase pair for clients written against them.
  return { id: event.id, url: platform.webhookEndpoint, response_status: responseStatus, response_body: responseBody, responseStatus, responseBody };
}
