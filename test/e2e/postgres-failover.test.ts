import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePorts, waitForPort } from '../../src/dev/ports';
import { failOver, frontConfigFile, readPostgresFront, writePostgresFront } from '../../src/dev/postgres-front';
import { KillablePostgres } from '../proof/killable-postgres';
import { eventually } from '../support/eventually';

// The failover command's steps on their own, without the service: a primary with a synchronous standby
// (bin/lib/postgres.sh standby) behind the PostgreSQL front (HAProxy, TCP). The old primary is left running, so that
// only the command's cut and fence keep it from taking writes: a session a client held to it is ended, a new
// connection through the front lands on the promoted standby (every committed row there), and the old primary,
// started again, is read-only.

const root = resolve(__dirname, '../..');
const haproxy = spawnSync('bash', [join(root, 'bin/lib/haproxy.sh')], { encoding: 'utf8' });
const dir = join(root, '.data/postgres-failover-test');
let primary: KillablePostgres;
let standby: KillablePostgres;
let front: ChildProcess | undefined;
let frontPort: number;

async function connect(port: number, cluster: KillablePostgres): Promise<Client> {
  const url = new URL(cluster.url('postgres'));
  url.port = String(port);
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined); // a session the front ends fails its next query; that is asserted
  await client.connect();
  return client;
}

beforeAll(async () => {
  if (haproxy.status !== 0) throw new Error(`no HAProxy: ${haproxy.stderr}`);
  const [primaryPort, standbyPort, port] = (await freePorts(3)) as [number, number, number];
  frontPort = port;
  primary = new KillablePostgres('postgres-failover-test-a', primaryPort);
  standby = new KillablePostgres('postgres-failover-test-b', standbyPort);
  primary.remove();
  standby.remove();
  primary.start();
  standby.makeStandbyOf(primary.clusterName, 'sync');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writePostgresFront(root, dir, {
    port: frontPort,
    socket: join(dir, 'postgres-front.sock'),
    primary: { name: primary.clusterName, port: primary.port },
    standby: { name: standby.clusterName, port: standby.port },
  });
  front = spawn(haproxy.stdout.trim(), ['-db', '-f', frontConfigFile(dir)], { stdio: 'ignore' });
  await waitForPort(frontPort, 30_000);
}, 180_000);

afterAll(async () => {
  front?.kill('SIGKILL');
  primary?.remove();
  standby?.remove();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

test('failover cuts the sessions to the running primary, fences it, and the front sends to the promoted standby with every committed row', async () => {
  const held = await connect(frontPort, primary);
  await held.query('create table payouts (id int primary key)');
  await held.query('insert into payouts values (1), (2)');
  // Synchronous: the commit returned once the standby had it.
  const onStandby = await connect(standby.port, standby);
  expect((await onStandby.query('select pg_is_in_recovery() as r')).rows[0].r).toBe(true);
  await eventually(
    async () => (await onStandby.query('select count(*)::int as n from payouts')).rows[0].n,
    (n) => n === 2,
  );
  await onStandby.end();

  const steps = await failOver(root, dir);
  expect(steps.map((s) => s.step)).toEqual(['cut', 'fence', 'promote', 'point', 'check']);

  // The session held to the old primary was ended; no write reaches it.
  await expect(held.query('insert into payouts values (3)')).rejects.toThrow();
  const through = await connect(frontPort, standby);
  expect((await through.query('select pg_is_in_recovery() as r')).rows[0].r).toBe(false);
  await through.query('insert into payouts values (3)');
  expect((await through.query('select id from payouts order by id')).rows.map((r) => r.id)).toEqual([1, 2, 3]);
  await through.end();

  // The front's files name the new primary and the fenced one, so that a restart of HAProxy keeps the decision.
  expect(readPostgresFront(dir)).toMatchObject({ primary: { name: standby.clusterName }, fenced: [{ name: primary.clusterName }] });
  expect(readPostgresFront(dir).standby).toBeUndefined();

  // Fenced: started again, the old primary is read-only.
  primary.start();
  const old = await connect(primary.port, primary);
  expect((await old.query('select pg_is_in_recovery() as r')).rows[0].r).toBe(true);
  await expect(old.query('insert into payouts values (4)')).rejects.toThrow(/read-only/);
  await old.end();

  // No standby left: a second failover is refused before it touches anything.
  await expect(failOver(root, dir)).rejects.toThrow(/no standby/);
}, 180_000);
