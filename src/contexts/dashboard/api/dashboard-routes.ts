import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam, PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { METRICS_WINDOWS } from '../domain/metrics-windows';
import { dashboardMetrics } from '../services/metrics';
import { getWebhookEvent, listWebhookEvents, resendWebhookEvent } from '../services/webhook-events';

const BEYOND = 'Beyond the public reference (for the dashboard; HTTP Basic works too).';
const dateTimeFilter = (description: string) => z.iso.datetime({ offset: true }).optional().openapi({ description });
const WEBHOOK_STATES = ['PENDING', 'DELIVERED', 'FAILED'] as const;

const WebhookEventSummarySchema = z
  .object({
    id: z.string(),
    type: z.string(),
    resourceId: z.string().nullable().openapi({
      description:
        "What the event is about: the first id its payload's data names, in this order: id (the transaction, customer, account … itself), transactionId, customerId, accountId, internalAccountId, quoteId; null when it names none",
    }),
    state: z
      .enum(WEBHOOK_STATES)
      .openapi({ description: 'PENDING: not accepted yet (retrying); DELIVERED: the endpoint accepted it; FAILED: retries ran out' }),
    attempts: z.number().int(),
    lastResponseStatus: z.number().int().nullable().openapi({ description: "The last attempt's HTTP status; null when it got no answer or none was made" }),
    lastAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .openapi('WebhookEventSummary');

const DeliveryAttemptSchema = z
  .object({
    attemptedAt: z.iso.datetime(),
    responseStatus: z.number().int().nullable().openapi({ description: 'null: no HTTP answer' }),
    durationMs: z.number().int(),
    error: z.string().nullable().openapi({ description: 'Why there was no HTTP answer (vague on purpose: no port scanning through us)' }),
    outcome: z.string().openapi({ description: 'DELIVERED, DUPLICATE (409: the receiver had it), REJECTED, UNREACHABLE or NO_ENDPOINT' }),
  })
  .openapi('WebhookDeliveryAttempt');

const WebhookEventDetailSchema = WebhookEventSummarySchema.extend({
  payload: z.string().openapi({ description: 'The exact body sent on every attempt (JSON text: `{id, type, timestamp, data}`)' }),
  deliveryAttempts: z.array(DeliveryAttemptSchema).openapi({ description: 'Every attempt that was made, oldest first' }),
}).openapi('WebhookEventDetail');

const WebhookEventListQuerySchema = PageQuerySchema.extend({
  type: z.string().min(1).max(100).optional().openapi({ description: 'Events of this type, e.g. OUTGOING_PAYMENT.COMPLETED' }),
  state: z.enum(WEBHOOK_STATES).optional(),
  resourceId: z.string().min(1).max(200).optional().openapi({
    description: "Events about this resource: its id in the payload's data (id, transactionId, customerId, accountId, internalAccountId, quoteId)",
  }),
  createdAfter: dateTimeFilter('Events created at or after this time'),
  createdBefore: dateTimeFilter('Events created at or before this time'),
});

const moneyAmount = z.number().int().openapi({ format: 'int64', description: 'Minor units (bigint, written as a JSON integer)' });

const DashboardMetricsSchema = z
  .object({
    window: z.enum(['24h', '7d', '30d']),
    balances: z.array(z.object({ currency: z.string(), available: moneyAmount, total: moneyAmount })).openapi({
      description: "The platform's internal accounts summed per currency: available, and total with the money held",
    }),
    payments: z.object({
      byStatus: z.record(z.string(), z.number().int()).openapi({ description: 'Transactions created in the window, counted by status' }),
      volume: z
        .array(z.object({ bucketStart: z.iso.datetime(), currency: z.string(), count: z.number().int(), amount: moneyAmount }))
        .openapi({ description: 'Transactions created in the window per bucket (hourly for 24h, daily otherwise, UTC) and currency' }),
    }),
    webhooks: z.object({
      failing: z.number().int().openapi({ description: 'Events of the window that failed, or are retrying after a failed attempt' }),
      endpointPaused: z.boolean().openapi({ description: "The endpoint's circuit breaker holds deliveries back now" }),
    }),
    approvalsWaiting: z.object({ agentActions: z.number().int(), incomingPayments: z.number().int() }),
  })
  .openapi('DashboardMetrics');

const TAGS = ['Dashboard'];
const EventIdParam = IdParam('eventId');

export const dashboardRoutes = [
  defineRoute({
    method: 'get',
    path: '/webhook-events',
    operationId: 'listWebhookEvents',
    summary: 'List webhook events',
    description: `The platform's webhook events (token's environment), newest first, with their delivery state. ${BEYOND}`,
    tags: TAGS,
    query: WebhookEventListQuerySchema,
    responses: { 200: { description: 'One page of events', schema: pageOf(WebhookEventSummarySchema, 'WebhookEventListResponse') } },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listWebhookEvents(em, caller, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/webhook-events/:eventId',
    operationId: 'getWebhookEvent',
    summary: 'Get a webhook event',
    description: `A webhook event with the exact body sent and every delivery attempt. ${BEYOND}`,
    tags: TAGS,
    params: EventIdParam,
    responses: { 200: { description: 'The event', schema: WebhookEventDetailSchema }, 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await getWebhookEvent(em, caller, params.eventId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/webhook-events/:eventId/resend',
    operationId: 'resendWebhookEvent',
    summary: 'Resend a webhook event',
    description: `Delivers the same event (same id and body) again, retried as every delivery is; a delivery still retrying is not doubled. ${BEYOND}`,
    tags: TAGS,
    params: EventIdParam,
    idempotent: true,
    responses: { 202: { description: 'The delivery is started; the event as it is now', schema: WebhookEventDetailSchema }, 404: errorResponses[404] },
    handler: async ({ em, caller, params, deps }) => ({ status: 202, body: await resendWebhookEvent(deps, em, caller, params.eventId) }),
  }),
  defineRoute({
    method: 'get',
    path: '/dashboard/metrics',
    operationId: 'getDashboardMetrics',
    summary: 'Get dashboard metrics',
    description: `Balances, payments by status and volume, webhook health and approvals waiting, over a window. ${BEYOND}`,
    tags: TAGS,
    query: z.object({
      window: z
        .enum(Object.keys(METRICS_WINDOWS) as [keyof typeof METRICS_WINDOWS, ...(keyof typeof METRICS_WINDOWS)[]])
        .default('24h')
        .openapi({ description: '24h (hourly buckets), 7d or 30d (daily buckets); default 24h' }),
    }),
    responses: { 200: { description: 'The figures', schema: DashboardMetricsSchema } },
    handler: async ({ em, caller, query, deps }) => ({ status: 200, body: await dashboardMetrics(em, caller, query.window, (deps.now ?? Date.now)()) }),
  }),
];
