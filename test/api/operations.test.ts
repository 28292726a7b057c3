import { MockActivityEnvironment } from '@temporalio/testing';
import { Client, Connection } from '@temporalio/client';
import { once } from 'node:events';
import { Registry, type Counter } from 'prom-client';
import request from 'supertest';
import { createActivities } from '../../activities';
import { createWorkerMetrics } from '../../activities/metrics';
import { loopbackWebhookSender } from '../support/receiver';
import { createApp } from '../../src/api/app';
import { createApiMetrics } from '../../src/api/metrics';
import { Customer } from '../../src/contexts/customers/entities';
import { openOrm } from '../../src/db/orm';
import { freePort } from '../../src/dev/ports';
import { newId } from '../../src/domain/ids';
import { serveMetrics } from '../../src/observability/metrics-server';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const matches = (labels: Record<string, unknown>, wanted: Record<string, string>) => Object.entries(wanted).every(([k, v]) => String(labels[k]) === v);

async function counted(counter: Counter<string>, labels: Record<string, string>): Promise<number> {
  return (await counter.get()).values.find((v) => matches(v.labels, labels))?.value ?? 0;
}

/** Requests recorded under these labels (the histogram's `_count`). */
async function requests(labels: Record<string, string>): Promise<number> {
  const { values } = await h.apiMetrics.requestDuration.get();
  return values
    .filter((v) => v.metricName === 'payments_http_request_duration_seconds_count' && matches(v.labels, labels))
    .reduce((sum, v) => sum + v.value, 0);
}

async function customerAccount() {
  const p = await h.platform();
  const created = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `ops-${Math.random()}`, fullName: 'Ada Lovelace' });
  const accounts = await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&currency=USD`);
  return { ...p, customerId: created.body.id as string, accountId: accounts.body.data[0].id as string };
}

describe('GET /ready', () => {
  test('answers 200 when PostgreSQL and Temporal both answer', async () => {
    const res = await request(h.app).get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } });
  });

  test('answers 503 naming Temporal when nobody listens at its address', async () => {
    // Without the client's gRPC retries, whose pending timers would outlive the connection closed below.
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, interceptors: [] });
    try {
      const res = await request(createApp({ ...h.deps, temporal: new Client({ connection }) })).get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'not_ready', checks: { postgres: 'ok', temporal: 'failed' } });
    } finally {
      await connection.close();
    }
  });

  test('answers 503 naming PostgreSQL when nobody listens at its port', async () => {
    const orm = await openOrm(`postgresql://payments@127.0.0.1:${await freePort()}/payments`);
    try {
      const res = await request(createApp({ ...h.deps, orm })).get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'not_ready', checks: { postgres: 'failed', temporal: 'ok' } });
    } finally {
      await orm.close();
    }
  });
});

describe('API metrics', () => {
  test('requests are recorded by route template and status, never by raw URL; unknown routes share one label', async () => {
    const { api, customerId } = await customerAccount();
    const template = { method: 'GET', route: '/customers/:customerId' };
    const before = {
      found: await requests({ ...template, status_code: '200' }),
      missing: await requests({ ...template, status_code: '404' }),
      unmatched: await requests({ route: 'unmatched', status_code: '404' }),
    };

    await api.get(`/customers/${customerId}`).expect(200);
    await api.get('/customers/Customer:00000000-0000-4000-8000-000000000000').expect(404);
    // Not an id: the id route answers it as an unknown customer.
    await api.get('/customers/not-an-id').expect(404);
    await api.get('/no-such-route/42').expect(404);

    await eventually(
      () => requests({ route: 'unmatched', status_code: '404' }),
      (n) => n >= before.unmatched + 1,
    );
    expect(await requests({ ...template, status_code: '200' })).toBe(before.found + 1);
    expect(await requests({ ...template, status_code: '404' })).toBe(before.missing + 2);
    expect(await requests({ route: 'unmatched', status_code: '404' })).toBe(before.unmatched + 1);
    const exposition = await h.apiMetrics.registry.metrics();
    expect(exposition).toContain('route="/customers/:customerId"');
    expect(exposition).not.toContain(customerId);
    expect(exposition).not.toContain('not-an-id');
  });

  test('a request answered from its stored Idempotency-Key response counts as a replay; the first does not', async () => {
    const { api } = await h.platform();
    const replays = () => counted(h.apiMetrics.idempotencyReplays, { route: '/customers' });
    const before = await replays();
    const body = { customerType: 'INDIVIDUAL', platformCustomerId: `idem-${Math.random()}`, fullName: 'Ada Lovelace' };
    await api.post('/customers', body, { 'Idempotency-Key': 'replay-me' }).expect(201);
    expect(await replays()).toBe(before);
    const again = await api.post('/customers', body, { 'Idempotency-Key': 'replay-me' }).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await replays()).toBe(before + 1);
  });

  test('the metrics listener serves Prometheus text on GET /metrics only', async () => {
    const metrics = createApiMetrics(new Registry());
    metrics.idempotencyReplays.inc({ route: '/customers' });
    const port = await freePort();
    const server = serveMetrics(metrics.registry, { host: '127.0.0.1', port });
    try {
      await once(server, 'listening');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('payments_idempotency_replays_total{route="/customers"} 1');
      expect(text).toContain('process_start_time_seconds');
      expect((await fetch(`http://127.0.0.1:${port}${BASE}/customers`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('worker metrics', () => {
  test('a funded payment counts as completed and its webhooks as delivered', async () => {
    const { api, accountId } = await customerAccount();
    const completed = () => counted(h.workerMetrics.paymentsFinished, { direction: 'incoming', outcome: 'completed' });
    const delivered = () => counted(h.workerMetrics.webhookDeliveries, { outcome: 'delivered' });
    const before = { completed: await completed(), delivered: await delivered() };

    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1_000 }).expect(200);
    // Counted when the posting committed, which is before the API answers.
    expect(await completed()).toBe(before.completed + 1);
    await h.receiver.waitFor((hooks) =>
      hooks.some(
        (x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED' && (x.body.data.destination as { accountId?: string } | undefined)?.accountId === accountId,
      ),
    );
    // The payment's event and the balance update, at least (other tests' events may be delivered meanwhile).
    expect(await eventually(delivered, (n) => n >= before.delivered + 2)).toBeGreaterThanOrEqual(before.delivered + 2);
  });

  test('payouts count as outgoing completed or failed once their rail answers', async () => {
    const { api, customerId, accountId } = await customerAccount();
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 50_000 }).expect(200);
    const outgoing = (outcome: string) => counted(h.workerMetrics.paymentsFinished, { direction: 'outgoing', outcome });
    const before = { completed: await outgoing('completed'), failed: await outgoing('failed') };
    // Sandbox IBANs: any ending completes at once, 004 fails delivery at once (refunded).
    for (const suffix of ['999', '004']) {
      const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) }).expect(201);
      const quote = await api
        .post('/quotes', {
          source: { sourceType: 'ACCOUNT', accountId },
          destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 10_000,
        })
        .expect(201);
      await api.post(`/quotes/${quote.body.id}/execute`).expect(200);
    }
    expect(
      await eventually(
        () => outgoing('completed'),
        (n) => n > before.completed,
      ),
    ).toBe(before.completed + 1);
    expect(
      await eventually(
        () => outgoing('failed'),
        (n) => n > before.failed,
      ),
    ).toBe(before.failed + 1);
  });

  test('a posting step run twice (an activity retry) counts its payment once; a refused payment counts as failed', async () => {
    const { platform, customerId, accountId } = await customerAccount();
    const metrics = createWorkerMetrics(new Registry());
    const { postIncomingPayment } = createActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender, metrics }) as unknown as {
      postIncomingPayment: (input: unknown) => Promise<{ status: string }>;
    };
    const input = (transactionId: string) => ({
      transactionId,
      platformId: platform.id,
      environment: 'SANDBOX',
      customerId,
      internalAccountId: accountId,
      currency: 'USD',
      amount: '500',
      source: { sourceType: 'SANDBOX_FUNDING' },
    });
    const env = new MockActivityEnvironment();

    const paid = input(newId('Transaction'));
    expect(await env.run(postIncomingPayment, paid)).toMatchObject({ status: 'COMPLETED' });
    expect(await env.run(postIncomingPayment, paid)).toMatchObject({ status: 'COMPLETED' });
    expect(await counted(metrics.paymentsFinished, { direction: 'incoming', outcome: 'completed' })).toBe(1);

    await h.orm.em.fork().nativeUpdate(Customer, { id: customerId }, { isDeleted: true });
    const refused = input(newId('Transaction'));
    expect(await env.run(postIncomingPayment, refused)).toMatchObject({ status: 'FAILED' });
    expect(await env.run(postIncomingPayment, refused)).toMatchObject({ status: 'FAILED' });
    expect(await counted(metrics.paymentsFinished, { direction: 'incoming', outcome: 'failed' })).toBe(1);
    expect(await counted(metrics.paymentsFinished, { direction: 'incoming', outcome: 'completed' })).toBe(1);
  });
});
