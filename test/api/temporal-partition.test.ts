import { Client, type Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { connectTemporal } from '../../src/temporal/client-connection';
import { Toxiproxy } from '../proof/faults/toxiproxy';
import { describeWithToxiproxy } from '../support/with-toxiproxy';
import { Api, Harness } from '../support/harness';

/**
 * An API replica cut from Temporal (the connection open, nothing coming back: a partition, made with
 * toxiproxy's blackhole between the API's client and the run's Temporal server). Its requests must end
 * within their deadline as 503, releasing their Idempotency-Key so the partner's retry can run, and the
 * replica must be ready again within seconds of the link's return, not after gRPC's reconnect backoff.
 */

const CALL_TIMEOUT_MS = 3_000;

const maybe = describeWithToxiproxy('partition tests');

maybe('an API replica cut from Temporal', () => {
  let h: Harness;
  let toxiproxy: Toxiproxy;
  let connection: Connection;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    h = await Harness.start();
    toxiproxy = await Toxiproxy.start(mkdtempSync(join(tmpdir(), 'toxiproxy-')));
    const temporalPort = Number(process.env.TEMPORAL_TEST_ADDRESS!.split(':').pop());
    const proxied = await toxiproxy.upstream('api', 'temporal', temporalPort);
    // The API's client as api/main.ts makes it, through the proxy; the worker keeps its direct link.
    connection = await connectTemporal(`127.0.0.1:${proxied}`);
    const temporal = new Client({ connection, namespace: 'default' });
    app = createApp({ ...h.deps, temporal, config: { ...h.deps.config, temporalCallTimeoutMs: CALL_TIMEOUT_MS } });
  });

  afterAll(async () => {
    await connection?.close();
    await toxiproxy?.stop();
    await h?.stop();
  });

  const partition = (on: boolean) =>
    Promise.all(
      (['upstream', 'downstream'] as const).map((stream) =>
        on
          ? toxiproxy.addToxic('api-temporal', { name: `partition-${stream}`, type: 'timeout', stream, attributes: { timeout: 0 } })
          : toxiproxy.removeToxic('api-temporal', `partition-${stream}`),
      ),
    );

  async function fundedAccount(api: Api): Promise<string> {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${randomUUID()}`, fullName: 'Pat Partition' });
    expect(customer.status).toBe(201);
    const accounts = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id as string)}`)).body.data as {
      id: string;
      balance: { currency: { code: string } };
    }[];
    const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
    expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 })).status).toBe(200);
    return usd;
  }

  const balanceOf = async (api: Api, accountId: string) =>
    ((await api.get('/customers/internal-accounts?limit=100')).body.data as { id: string; balance: { amount: number } }[]).find((a) => a.id === accountId)!
      .balance.amount;

  test('its requests answer 503 within their deadline, and the retry after the partition is done once', async () => {
    const p = await h.platform();
    const api = new Api(app, p.auth);
    const usd = await fundedAccount(api);
    const key = randomUUID();

    await partition(true);
    try {
      const sent = Date.now();
      const cut = await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 2_500 }, { 'Idempotency-Key': key });
      const waited = Date.now() - sent;
      expect(cut.status).toBe(503);
      expect(cut.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(cut.headers['retry-after']).toBe('1');
      // Its one shared deadline, not a wait per call or for gRPC's keepalive (45 s by default).
      expect(waited).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 100);
      expect(waited).toBeLessThan(CALL_TIMEOUT_MS + 2_000);
      expect((await request(app).get('/ready')).status).toBe(503);
      // The key was released, not left "in progress" for the retry to wait on.
      const again = await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 2_500 }, { 'Idempotency-Key': key });
      expect(again.status).toBe(503);
      expect(again.body.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await partition(false);
    }

    // Ready within seconds of the heal: the client reconnects at once instead of sitting in backoff.
    const healed = Date.now();
    while ((await request(app).get('/ready')).status !== 200) {
      if (Date.now() - healed > 8_000) throw new Error('the API was not ready within 8 s of the partition ending');
      await new Promise((done) => setTimeout(done, 100));
    }
    const retried = await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 2_500 }, { 'Idempotency-Key': key });
    expect(retried.status).toBe(200);
    const replayed = await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 2_500 }, { 'Idempotency-Key': key });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(api, usd)).toBe(12_500);
  });

  test('after a minute of Temporal refusing connections (a restart, an upgrade), the replica is ready within seconds of its return', async () => {
    // A disabled proxy refuses connections, as a host whose Temporal is down does: the client retries with
    // a growing backoff (gRPC's default grows to two minutes), which must stay short for a link this near.
    await toxiproxy.setEnabled('api-temporal', false);
    try {
      // Probed meanwhile as a load balancer probes it: calls keep the client connecting, so its backoff grows.
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        expect((await request(app).get('/ready')).status).toBe(503);
        await new Promise((done) => setTimeout(done, 500));
      }
    } finally {
      await toxiproxy.setEnabled('api-temporal', true);
    }
    const back = Date.now();
    while ((await request(app).get('/ready')).status !== 200) {
      if (Date.now() - back > 5_000) throw new Error('the API was not ready within 5 s of Temporal answering again');
      await new Promise((done) => setTimeout(done, 100));
    }
  }, 120_000);
});
