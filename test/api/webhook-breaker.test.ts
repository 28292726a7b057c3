import { randomUUID } from 'node:crypto';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { strandedDeliveries } from '../../src/contexts/webhooks/services/stranded-deliveries';
import { BREAKER_COLUMNS, EndpointBreakers } from '../../src/contexts/webhooks/services/endpoint-breakers';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';
import { loopbackWebhookSender, WebhookReceiver, type ReceivedWebhook } from '../support/receiver';
import { createActivities } from '../../activities/webhooks';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';

// The per-endpoint circuit breaker of webhook deliveries (src/contexts/webhooks/domain/delivery-breaker.ts),
// on the real worker and database, with a threshold of 3 and pauses of seconds instead of 20 and minutes.
// Every customer created makes webhook events whose first attempts run at once (deliverWebhooks); their
// retries start 30 s later at the earliest, after this test's steps.

const THRESHOLD = 3;
// Long enough that no pause passes on its own while the test runs, however slow the machine: the test ends a
// pause itself (endPause) where it needs the pause to have passed, instead of sleeping through it.
const FIRST_PAUSE_S = 60;

let h: Harness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  h = await Harness.start({ webhookBreaker: { threshold: THRESHOLD, firstPauseSeconds: FIRST_PAUSE_S, maxPauseSeconds: 240, probeWindowSeconds: 60 } });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pausedAttempts(): Promise<number> {
  return (await h.workerMetrics.webhookAttempts.get()).values.find((v) => v.labels.outcome === 'paused')?.value ?? 0;
}

/** Whether the platform's endpoint breaker is open: a pause is recorded and has not passed. */
async function breakerOpenFor(platformId: string): Promise<boolean> {
  const rows = await h.orm.em
    .fork()
    .getConnection()
    .execute<{ open: boolean }[]>('select coalesce(bool_or(paused_until > now()), false) as open from webhook_endpoint_breakers where platform_id = ?', [
      platformId,
    ]);
  return rows[0]?.open === true;
}

/** The breaker's pause has passed, as if its time had gone by: its row is written as a later clock would find it. */
async function endPause(platformId: string): Promise<void> {
  await h.orm.em
    .fork()
    .getConnection()
    .execute(
      "update webhook_endpoint_breakers set paused_until = now() - interval '1 millisecond', version = version + 1, updated_at = now() where platform_id = ? and paused_until is not null",
      [platformId],
    );
}

/** The pause the platform's breaker is in: its length now, and how long it still lasts (seconds). */
async function pauseOf(platformId: string): Promise<{ pauseSeconds: number; leftSeconds: number }> {
  const [row] = await h.orm.em
    .fork()
    .getConnection()
    .execute<{ pause_seconds: number; left: string }[]>(
      'select pause_seconds, extract(epoch from paused_until - now())::text as left from webhook_endpoint_breakers where platform_id = ?',
      [platformId],
    );
  return { pauseSeconds: Number(row!.pause_seconds), leftSeconds: Number(row!.left) };
}

async function eventsOf(platformId: string): Promise<WebhookEvent[]> {
  return h.orm.em.fork().find(WebhookEvent, { platformId, type: { $ne: 'TEST' } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Creates a customer and waits until each event it made has had its first attempt: posted (counted on the row) or held back (marked on the row). */
async function customerWithFirstAttempts(p: Platform): Promise<WebhookEvent[]> {
  const before = new Set((await eventsOf(p.platform.id)).map((e) => e.id));
  const res = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID()}`, fullName: 'Ada Lovelace' });
  expect(res.status).toBe(201);
  for (const deadline = Date.now() + 20_000; ; await sleep(50)) {
    const made = (await eventsOf(p.platform.id)).filter((e) => !before.has(e.id));
    const done = made.filter((e) => e.attempts > 0 || e.heldBackAt).length;
    if (made.length > 0 && done === made.length) return made;
    if (Date.now() > deadline) throw new Error(`first attempts not done: ${made.length} events, ${done} posted or held back`);
  }
}

test('after THRESHOLD failures the endpoint is paused for that platform only; one probe goes out once the pause passes; a successful one resumes deliveries at once', async () => {
  const a = await h.platform({ webhookEndpoint: receiver.url });
  // Another platform with the same endpoint URL: the breaker is per platform and endpoint, so A's failures never pause B.
  const b = await h.platform({ webhookEndpoint: receiver.url });
  const aKey = (await a.api.get('/webhooks/public-key')).body.publicKeyPem as string;
  const fromA = (hook: ReceivedWebhook) => verifyWebhookSignature(aKey, hook.rawBody, String(hook.headers['x-svc-signature']));
  let aDown = true;
  receiver.respond = (hook) => (aDown && fromA(hook) ? 503 : 200);
  const requestsOfA = () => receiver.received.filter((hook) => hook.body.type !== 'TEST' && fromA(hook)).length;
  const pausedAtStart = await pausedAttempts();

  // A's receiver fails: the first THRESHOLD attempts post, then the breaker opens. An attempt counts once its answer
  // is in, so one that was admitted while the last counted failure was still on the wire posts too (a retry, or
  // another event's first attempt): the test waits for the breaker's state, not for the receiver's count.
  const made: WebhookEvent[] = [];
  while (requestsOfA() < THRESHOLD) made.push(...(await customerWithFirstAttempts(a)));
  await eventually(
    () => breakerOpenFor(a.platform.id),
    (open) => open,
  );
  const postedWhileClosed = requestsOfA();
  expect(postedWhileClosed).toBeGreaterThanOrEqual(THRESHOLD);

  // While it is open, new events of A are not posted: not an attempt on their rows, counted `paused`.
  const heldBack = [...(await customerWithFirstAttempts(a)), ...(await customerWithFirstAttempts(a))];
  expect(requestsOfA()).toBe(postedWhileClosed);
  for (const event of await eventsOf(a.platform.id))
    if (heldBack.some((e) => e.id === event.id))
      expect({ id: event.id, state: event.state, attempts: event.attempts }).toEqual({ id: event.id, state: 'PENDING', attempts: 0 });
  expect((await pausedAttempts()) - pausedAtStart).toBeGreaterThanOrEqual(heldBack.length + made.filter((e) => e.attempts === 0).length);
  // Their delivery workflows are waiting out the pause: the sweep for stranded deliveries (never attempted) passes them over,
  // so that thousands of held-back events never hide a stranded one behind its limit.
  const stranded = await strandedDeliveries.find(h.orm.em.fork(), { overdue: new Date(Date.now() + 60_000), limit: 1000, platformId: a.platform.id });
  expect(stranded.filter((e) => heldBack.some((x) => x.id === e.id))).toEqual([]);

  // The platform's own test webhook is its check of the endpoint: it still posts (and tells what the endpoint said).
  const check = await a.api.post('/webhooks/test');
  expect(check.body).toMatchObject({ code: 'WEBHOOK_DELIVERY_ERROR', details: { responseStatus: 503 } });

  // B, same URL, is delivered at once while A is paused.
  const ofB = await customerWithFirstAttempts(b);
  expect((await eventsOf(b.platform.id)).filter((e) => ofB.some((x) => x.id === e.id)).map((e) => [e.state, e.attempts])).toEqual(
    ofB.map(() => ['DELIVERED', 1]),
  );

  // The pause passes with A still down: ONE event probes and fails; the pause doubles, the rest stay held back.
  await endPause(a.platform.id);
  const requestsBeforeProbe = requestsOfA();
  const probed = await customerWithFirstAttempts(a);
  expect(requestsOfA()).toBe(requestsBeforeProbe + 1);
  const afterProbe = (await eventsOf(a.platform.id)).filter((e) => probed.some((x) => x.id === e.id));
  expect(afterProbe.map((e) => e.attempts).sort()).toEqual([...probed.map(() => 0).slice(1), 1].sort());
  // The pause doubled, and within it nothing of A posts.
  await eventually(
    () => pauseOf(a.platform.id),
    (pause) => pause.pauseSeconds === 2 * FIRST_PAUSE_S && pause.leftSeconds > FIRST_PAUSE_S,
  );
  await customerWithFirstAttempts(a);
  expect(requestsOfA()).toBe(requestsBeforeProbe + 1);

  // A's receiver is back; once the doubled pause has passed, a probe succeeds (events attempted alongside it,
  // by another activity while it was under way, wait for their retries) and every event after it is delivered at once.
  aDown = false;
  await endPause(a.platform.id);
  const withProbe = await customerWithFirstAttempts(a);
  const probeDelivered = (await eventsOf(a.platform.id)).filter((e) => withProbe.some((x) => x.id === e.id) && e.state === 'DELIVERED');
  expect(probeDelivered.length).toBeGreaterThanOrEqual(1);
  for (let i = 0; i < 2; i++) {
    const fresh = await customerWithFirstAttempts(a);
    const stored = (await eventsOf(a.platform.id)).filter((e) => fresh.some((x) => x.id === e.id));
    expect(stored.map((e) => [e.state, e.attempts])).toEqual(fresh.map(() => ['DELIVERED', 1]));
  }
});

describe('the breaker shared by workers (compare-and-set on its row)', () => {
  const settings = { threshold: 3, firstPauseSeconds: 60, maxPauseSeconds: 240, probeWindowSeconds: 60 };
  const failure = { kind: 'REJECTED', status: 503, body: '' } as const;
  const url = 'https://receiver.example/webhooks';

  async function read(platformId: string) {
    const [row] = await h.orm.em
      .getConnection()
      .execute<Record<string, unknown>[]>(
        `select ${BREAKER_COLUMNS} from platforms p left join webhook_endpoint_breakers b on b.platform_id = p.id and b.endpoint_key = md5(?) where p.id = ?`,
        [url, platformId],
      );
    return row!;
  }
  const worker = async (platformId: string, clock: () => number = Date.now) => {
    const breakers = new EndpointBreakers(h.orm.em.fork(), settings, clock);
    breakers.load(platformId, url, await read(platformId));
    return breakers;
  };

  test('two workers that read the breaker together both count their failures, and the second one to write opens it', async () => {
    const { platform } = await h.platform({ webhookEndpoint: null });
    const [one, two] = [await worker(platform.id), await worker(platform.id)];
    expect(await one.admit(platform.id, url)).toEqual({ post: true, probe: false });
    expect(await two.admit(platform.id, url)).toEqual({ post: true, probe: false });
    one.record(platform.id, url, failure, false);
    two.record(platform.id, url, failure, false);
    two.record(platform.id, url, failure, false);
    await one.save();
    await two.save();
    expect(await read(platform.id)).toMatchObject({ b__failures: 3, b__pause_seconds: 60, b__paused_until_ms: expect.any(Number) });
    expect(await (await worker(platform.id)).admit(platform.id, url)).toMatchObject({ post: false, outcome: { kind: 'PAUSED' } });
  });

  test('an endpoint URL longer than an index entry may be (2,048 characters, 3 bytes each, that do not compress) has its breaker too', async () => {
    const { platform } = await h.platform({ webhookEndpoint: null });
    const long = `https://receiver.example/${Array.from({ length: 2_000 }, () => String.fromCharCode(0x4e00 + Math.floor(Math.random() * 20_000))).join('')}`;
    const one = new EndpointBreakers(h.orm.em.fork(), settings);
    one.load(platform.id, long, {});
    for (let i = 0; i < 3; i++) one.record(platform.id, long, failure, false);
    await one.save();
    const two = new EndpointBreakers(h.orm.em.fork(), settings);
    const [row] = await h.orm.em
      .getConnection()
      .execute<Record<string, unknown>[]>(
        `select ${BREAKER_COLUMNS} from platforms p left join webhook_endpoint_breakers b on b.platform_id = p.id and b.endpoint_key = md5(?) where p.id = ?`,
        [long, platform.id],
      );
    two.load(platform.id, long, row!);
    expect(await two.admit(platform.id, long)).toMatchObject({ post: false, outcome: { kind: 'PAUSED' } });
  });

  test('once the pause has passed, exactly one of the workers that read it gets to probe', async () => {
    const { platform } = await h.platform({ webhookEndpoint: null });
    const opener = await worker(platform.id);
    for (let i = 0; i < 3; i++) opener.record(platform.id, url, failure, false);
    await opener.save();
    const later = () => Date.now() + 61_000;
    const workers = await Promise.all(Array.from({ length: 4 }, () => worker(platform.id, later)));
    const admitted = await Promise.all(workers.map((w) => w.admit(platform.id, url)));
    expect(admitted.filter((a) => a.post)).toEqual([{ post: true, probe: true }]);
    for (const a of admitted) if (!a.post) expect(a.outcome.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Its failure doubles the pause.
    const prober = workers[admitted.findIndex((a) => a.post)]!;
    prober.record(platform.id, url, failure, true);
    await prober.save();
    expect(await read(platform.id)).toMatchObject({ b__failures: 4, b__pause_seconds: 120 });
  });

  test('an attempt held back posts nothing and costs one statement (the first hold of a never-attempted event one write more)', async () => {
    const { platform } = await h.platform({ webhookEndpoint: receiver.url });
    const opener = new EndpointBreakers(h.orm.em.fork(), settings);
    opener.load(platform.id, receiver.url, {});
    for (let i = 0; i < 3; i++) opener.record(platform.id, receiver.url, failure, false);
    await opener.save();
    const event = await recordWebhookEvent(h.orm.em.fork(), { platformId: platform.id, environment: 'SANDBOX', type: 'CUSTOMER.KYC_APPROVED', data: {} });
    const { deliverWebhook } = createActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender, webhookBreaker: settings });
    const statements = async () => (await h.dbMetrics.statements.get()).values.reduce((sum, v) => sum + v.value, 0);
    const received = receiver.received.length;
    const costs: number[] = [];
    for (let i = 0; i < 2; i++) {
      const before = await statements();
      expect(await deliverWebhook({ eventId: event.id })).toMatchObject({ kind: 'PAUSED' });
      costs.push((await statements()) - before);
    }
    console.log(`SQL statements of a held-back attempt: first ${costs[0]}, then ${costs[1]}`);
    expect(costs[1]).toBe(1);
    expect(costs[0]).toBeLessThanOrEqual(2);
    expect(receiver.received.length).toBe(received);
  });
});
