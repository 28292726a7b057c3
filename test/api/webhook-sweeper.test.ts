import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import { strandedDeliveries } from '../../src/contexts/webhooks/services/stranded-deliveries';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

// Sweeps are scoped to the test's platform: other test files' events belong to their workers.
test('an event whose delivery never started is delivered by the sweep, once', async () => {
  const { platform } = await h.platform();
  const scope = { taskQueue: h.taskQueue, platformId: platform.id };
  // Recorded, but the process "died" before starting its workflow.
  const event = await recordWebhookEvent(h.orm.em.fork(), { platformId: platform.id, environment: 'SANDBOX', type: 'TEST', data: { stranded: true } });
  const fresh = await recordWebhookEvent(h.orm.em.fork(), { platformId: platform.id, environment: 'SANDBOX', type: 'TEST', data: { fresh: true } });

  // Within the grace period nothing is touched: a normal start may still be on its way.
  expect(await startStrandedOf(h.orm, h.temporal, strandedDeliveries, { ...scope, graceMs: 60_000 })).not.toContain(event.id);

  const started = await startStrandedOf(h.orm, h.temporal, strandedDeliveries, { ...scope, graceMs: 0 });
  expect(started).toEqual(expect.arrayContaining([event.id, fresh.id]));
  await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.id === event.id));
  await h.temporal.workflow.getHandle(event.id).result();
  expect((await h.orm.em.fork().findOneOrFail(WebhookEvent, { id: event.id }, { refresh: true })).state).toBe('DELIVERED');

  // A second sweep finds nothing to do and sends nothing again.
  expect(await startStrandedOf(h.orm, h.temporal, strandedDeliveries, { ...scope, graceMs: 0 })).not.toContain(event.id);
  expect(h.receiver.received.filter((x) => x.body.id === event.id)).toHaveLength(1);
});

test('an event whose delivery workflow already ran is not started again', async () => {
  const { api, platform } = await h.platform();
  const res = await api.post('/webhooks/test');
  expect(res.status).toBe(200);
  // Delivered: state DELIVERED, attempts 1: no longer a candidate.
  expect(await startStrandedOf(h.orm, h.temporal, strandedDeliveries, { taskQueue: h.taskQueue, platformId: platform.id, graceMs: 0 })).toEqual([]);
  expect(h.receiver.received.filter((x) => x.body.id === res.body.id)).toHaveLength(1);
});
