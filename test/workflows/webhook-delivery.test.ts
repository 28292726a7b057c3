import type { MikroORM } from '@mikro-orm/postgresql';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { loopbackWebhookSender } from '../support/receiver';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import type { webhookDelivery } from '../../workflows/webhooks/webhook-delivery';
import { WebhookReceiver } from '../support/receiver';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import { timeSkippingEnvironment } from '../support/time-skipping';
import { DELIVERY_BREAKER } from '../../src/contexts/webhooks/domain/delivery-breaker';

// Webhook back-off spans days; the time-skipping test server runs it in seconds, with the real
// activities, the real database and a real HTTP receiver.

let env: TestWorkflowEnvironment;
let orm: MikroORM;
let receiver: WebhookReceiver;
let worker: Worker;
let running: Promise<void>;
let taskQueue: string;

beforeAll(async () => {
  quietTemporalRuntime();
  env = await timeSkippingEnvironment();
  orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 5 });
  receiver = await new WebhookReceiver().start();
  ({ worker, taskQueue } = await bundledWorker(
    env.nativeConnection,
    createActivities({
      orm,
      masterKey: parseMasterKey(process.env.MASTER_KEY!),
      webhookSender: loopbackWebhookSender,
      webhookTimeoutMs: 2_000,
      // The retry policy alone: the endpoint breaker's pauses run on the worker's clock, which the
      // time-skipping server does not move (the breaker is tested in test/api/webhook-breaker.test.ts).
      webhookBreaker: { ...DELIVERY_BREAKER, threshold: Number.MAX_SAFE_INTEGER },
    }),
  ));
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await receiver?.stop();
  await orm?.close();
  await env?.teardown();
});

async function newEvent(type = 'INCOMING_PAYMENT.COMPLETED') {
  const em = orm.em.fork();
  const platform = await createPlatform(em, { name: 'wf', webhookEndpoint: receiver.url });
  return recordWebhookEvent(em, { platformId: platform.id, environment: 'SANDBOX', type, data: { hello: 'world', amount: 9_007_199_254_740_993n } });
}

function deliver(args: Parameters<typeof webhookDelivery>[0]) {
  return env.client.workflow.execute<typeof webhookDelivery>('webhookDelivery', { workflowId: args.eventId, taskQueue, args: [args] });
}

test('retries with back-off over two days until the receiver accepts, with the same event id and bytes', async () => {
  const event = await newEvent();
  // The receiver is down for its first 100 attempts: about two days of back-off.
  receiver.respond = (hook, attempt) => (hook.body.id === event.id && attempt <= 100 ? 503 : 200);
  const result = await deliver({ eventId: event.id });

  expect(result).toMatchObject({ eventId: event.id, delivered: true, attempts: 101, lastOutcome: { kind: 'DELIVERED', status: 200 } });
  const attempts = receiver.received.filter((h) => h.body.id === event.id);
  expect(attempts).toHaveLength(101);
  expect(new Set(attempts.map((a) => a.rawBody)).size).toBe(1);
  expect(attempts[0]!.rawBody).toContain('"amount":9007199254740993');
  // 30 s doubling to the 30-minute cap, then every 30 minutes: just under two days in all.
  const elapsedHours = result.elapsedSeconds / 3600;
  expect(elapsedHours).toBeGreaterThan(40);
  expect(elapsedHours).toBeLessThan(7 * 24);
  const stored = await orm.em.fork().findOneOrFail(WebhookEvent, { id: event.id });
  expect(stored).toMatchObject({ state: 'DELIVERED', attempts: 101, lastResponseStatus: 200 });
  // 101 real HTTP attempts, each a timer, an activity and a database write: about 20 s on a quiet machine,
  // over jest's 60 s on one loaded core (docs/testing.md, run 15). The budget is for that work, not a wait.
}, 240_000);

test('a 409 from the receiver means it already has the event: no more retries', async () => {
  const event = await newEvent();
  receiver.respond = (hook) => (hook.body.id === event.id ? 409 : 200);
  const result = await deliver({ eventId: event.id });
  expect(result).toMatchObject({ delivered: true, attempts: 1, lastOutcome: { kind: 'DUPLICATE' } });
  expect(receiver.received.filter((h) => h.body.id === event.id)).toHaveLength(1);
});

test('gives up at the end of the retry horizon and marks the event FAILED', async () => {
  const event = await newEvent();
  receiver.respond = (hook) => (hook.body.id === event.id ? 500 : 200);
  // One hour of horizon: attempts after 0, 30, 90, 210, 450, 930 and 1890 seconds.
  const policy = { initialIntervalSeconds: 30, backoffCoefficient: 2, maximumIntervalSeconds: 1800, horizonSeconds: 3600 };
  const result = await deliver({ eventId: event.id, policy });
  expect(result).toMatchObject({ delivered: false, attempts: 7, lastOutcome: { kind: 'REJECTED', status: 500 } });
  const stored = await orm.em.fork().findOneOrFail(WebhookEvent, { id: event.id });
  expect(stored).toMatchObject({ state: 'FAILED', attempts: 7, lastResponseStatus: 500 });
});

test('time-outs and refused connections count as failed attempts', async () => {
  const em = orm.em.fork();
  const platform = await createPlatform(em, { name: 'wf-down', webhookEndpoint: 'http://127.0.0.1:9/nothing-here' });
  const event = await recordWebhookEvent(em, { platformId: platform.id, environment: 'SANDBOX', type: 'TEST', data: {} });
  const policy = { initialIntervalSeconds: 60, backoffCoefficient: 2, maximumIntervalSeconds: 60, horizonSeconds: 150 };
  const result = await deliver({ eventId: event.id, policy });
  expect(result).toMatchObject({ delivered: false, attempts: 3, lastOutcome: { kind: 'UNREACHABLE' } });
});
