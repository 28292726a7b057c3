import type { MikroORM } from '@mikro-orm/postgresql';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { openOrm } from '../../src/db/orm';
import { databaseOutOfReach } from '../../src/db/out-of-reach';
import { freePort } from '../../src/dev/ports';
import { eventually } from '../support/eventually';
import { BASE, Harness } from '../support/harness';

// Issue 36, item 2: with PostgreSQL out of reach every request answered 500. Real outages here, never a
// mocked error: an app whose database is a closed port, one whose connections are cut and whose server
// then stops answering (a TCP relay to the test database that is shut), and backends the server terminates.

/** A TCP relay to the test database that can cut every connection and stop listening, as a server going down does. */
class DatabaseRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** The server goes away: open connections are cut and new ones refused. */
  async down(): Promise<void> {
    const closed = new Promise<void>((done) => this.server!.close(() => done()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

const databaseUrl = () => process.env.DATABASE_URL!;
const viaPort = (url: string, port: number) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

let h: Harness;
let p: Awaited<ReturnType<Harness['platform']>>;
const orms: MikroORM[] = [];
beforeAll(async () => {
  h = await Harness.start();
  p = await h.platform();
});
afterAll(async () => {
  await Promise.all(orms.map((orm) => orm.close().catch(() => undefined)));
  await h.stop();
});

/** The API, with everything the harness gives except its database: this ORM's. */
async function appOn(url: string) {
  const orm = await openOrm(url, { poolMax: 2 });
  orms.push(orm);
  return createApp({ ...h.deps, orm });
}

const customer = { customerType: 'INDIVIDUAL', platformCustomerId: 'outage-1', fullName: 'Ola Outage' };

async function expectUnavailable(app: ReturnType<typeof createApp>) {
  const answers = [
    await request(app).get(`${BASE}/config`).set('Authorization', p.auth),
    await request(app).get(`${BASE}/transactions`).set('Authorization', p.auth),
    await request(app).post(`${BASE}/customers`).set('Authorization', p.auth).set('Idempotency-Key', 'outage-create').send(customer),
    // Credentials cannot be checked either: not a 401, the same 503.
    await request(app).get(`${BASE}/customers`).set('Authorization', 'Basic VG9rZW46eDp5'),
  ];
  for (const res of answers) {
    expect([res.status, res.body.code, res.headers['retry-after']]).toEqual([503, 'SERVICE_UNAVAILABLE', '1']);
    expect(res.body).toMatchObject({ status: 503, reason: expect.stringMatching(/database/) });
  }
}

test('PostgreSQL not listening: every request is 503 SERVICE_UNAVAILABLE with Retry-After, and /ready says postgres failed', async () => {
  const app = await appOn(viaPort(databaseUrl(), await freePort()));
  await expectUnavailable(app);
  const ready = await request(app).get('/ready');
  expect([ready.status, ready.body.checks]).toEqual([503, { postgres: 'failed', temporal: 'ok' }]);
});

test('PostgreSQL going away under a running API: 503 while it is away, served again when it is back, and nothing written meanwhile', async () => {
  const target = new URL(databaseUrl());
  const relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port) });
  await relay.open();
  const app = await appOn(viaPort(databaseUrl(), relay.port));
  expect((await request(app).get(`${BASE}/config`).set('Authorization', p.auth)).status).toBe(200);

  await relay.down();
  await expectUnavailable(app);
  expect((await request(app).get('/ready')).body.checks.postgres).toBe('failed');

  await relay.open();
  const back = await eventually(
    async () => (await request(app).get(`${BASE}/config`).set('Authorization', p.auth)).status,
    (status) => status === 200,
  );
  expect(back).toBe(200);
  // The create answered 503 was not done: its key is free, and the retry creates the customer once.
  const created = await request(app).post(`${BASE}/customers`).set('Authorization', p.auth).set('Idempotency-Key', 'outage-create').send(customer);
  expect(created.status).toBe(201);
  expect(created.headers['idempotent-replayed']).toBeUndefined();
  await relay.down();
});

/** Whether backend `pid` is inside its pg_sleep (so that terminating it cuts a query in flight). */
const sleepingIn = async (admin: Client, pid: number) =>
  (await admin.query("select 1 from pg_stat_activity where pid = $1 and wait_event = 'PgSleep'", [pid])).rowCount === 1;

test('a backend the server terminates (SQLSTATE 57P01) is recognised as the database out of reach, through pg and through the ORM', async () => {
  const admin = new Client({ connectionString: databaseUrl() });
  await admin.connect();
  try {
    // Straight from pg.
    const client = new Client({ connectionString: databaseUrl() });
    await client.connect();
    client.on('error', () => undefined);
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const sleeping = client.query('select pg_sleep(30)').then(
      () => undefined,
      (err: unknown) => err,
    );
    await eventually(() => sleepingIn(admin, pid), Boolean);
    await admin.query('select pg_terminate_backend($1)', [pid]);
    const fromPg = await sleeping;
    expect((fromPg as { code?: string }).code).toBe('57P01');
    expect(databaseOutOfReach(fromPg)).toBe(true);
    await client.end().catch(() => undefined);

    // Wrapped by MikroORM.
    const orm = await openOrm(databaseUrl(), { poolMax: 1 });
    orms.push(orm);
    const em = orm.em.fork();
    const ormPid = ((await em.execute('select pg_backend_pid() as pid')) as { pid: number }[])[0]!.pid;
    const ormSleeping = em.execute('select pg_sleep(30)').then(
      () => undefined,
      (err: unknown) => err,
    );
    await eventually(() => sleepingIn(admin, ormPid), Boolean);
    await admin.query('select pg_terminate_backend($1)', [ormPid]);
    expect(databaseOutOfReach(await ormSleeping)).toBe(true);

    // A refusal by a server that is up is not an outage.
    const refused = await h.orm.em
      .fork()
      .execute('select 1/0')
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect((refused as { code?: string }).code).toBe('22012');
    expect(databaseOutOfReach(refused)).toBe(false);
  } finally {
    await admin.end();
  }
});
