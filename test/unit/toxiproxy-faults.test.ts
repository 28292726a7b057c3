import { mkdtempSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fault } from '../proof/faults/steps';
import { Toxiproxy } from '../proof/faults/toxiproxy';
import { describeWithToxiproxy } from '../support/with-toxiproxy';
import { faultsCheck } from '../proof/faults/verdict';

/**
 * The crash campaign's network faults (`npm run chaos -- --faults`): the toxiproxy client does to a link what
 * each fault says, and the verdict holds only when every fault was injected and the service came back.
 */

const recovered = (fault: Fault['fault']): Fault => ({
  fault,
  links: ['worker-postgres'],
  at: 10,
  downMs: 30_000,
  componentBackMs: 500,
  serviceReadyMs: 100,
  answeringMs: 600,
  deliveringMs: 900,
  answeredDuring: 3,
  deliveredDuring: 0,
});

describe('the faults check', () => {
  test('holds when the four faults were injected and everything came back', () => {
    expect(faultsCheck(['latency', 'resets', 'worker ✕ postgres', 'api ✕ temporal'].map((f) => recovered(f as Fault['fault']))).ok).toBe(true);
  });

  test('fails on a fault never injected, or one the service did not come back from', () => {
    const missing = faultsCheck([recovered('latency'), recovered('resets'), recovered('worker ✕ postgres')]);
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining('not injected: api ✕ temporal') });
    const stuck = faultsCheck([
      recovered('latency'),
      recovered('resets'),
      recovered('worker ✕ postgres'),
      { ...recovered('api ✕ temporal'), deliveringMs: null },
    ]);
    expect(stuck).toMatchObject({ ok: false, detail: expect.stringContaining('not back within a minute: api ✕ temporal') });
  });
});

const maybe = describeWithToxiproxy('toxiproxy tests');

maybe('toxiproxy between a process and its server', () => {
  let toxiproxy: Toxiproxy;
  let echo: Server;
  let port: number;

  beforeAll(async () => {
    echo = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.pipe(socket);
    });
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    toxiproxy = await Toxiproxy.start(mkdtempSync(join(tmpdir(), 'toxiproxy-')));
    port = await toxiproxy.upstream('worker', 'postgres', (echo.address() as { port: number }).port);
  });

  afterAll(async () => {
    await toxiproxy?.stop();
    await new Promise((done) => echo?.close(done));
  });

  /** One byte there and back through the proxy: the round trip in ms, 'reset', or 'no answer' after `waitMs`. */
  const roundTrip = (waitMs = 1_500) =>
    new Promise<number | 'reset' | 'no answer'>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        const sent = Date.now();
        socket.write('x');
        socket.once('data', () => finish(Date.now() - sent));
      });
      const timer = setTimeout(() => finish('no answer'), waitMs);
      const finish = (result: number | 'reset' | 'no answer') => {
        clearTimeout(timer);
        socket.destroy();
        done(result);
      };
      socket.on('error', () => finish('reset'));
      socket.on('close', () => finish('reset'));
    });

  test('names the link by process and service, and passes data through it', async () => {
    expect(toxiproxy.links.get('worker-postgres')).toEqual({ process: 'worker', service: 'postgres' });
    expect(await roundTrip()).toEqual(expect.any(Number));
  });

  test('latency: every answer 200 ms late', async () => {
    await toxiproxy.addToxic('worker-postgres', { name: 'latency', type: 'latency', stream: 'downstream', attributes: { latency: 200, jitter: 0 } });
    expect(await roundTrip()).toBeGreaterThanOrEqual(200);
    await toxiproxy.removeToxic('worker-postgres', 'latency');
    expect(await roundTrip()).toBeLessThan(200);
  });

  test('a partition: nothing gets through while it lasts, and the link works again once healed', async () => {
    await toxiproxy.addToxic('worker-postgres', { name: 'partition-upstream', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } });
    expect(await roundTrip(800)).toBe('no answer');
    await toxiproxy.removeToxic('worker-postgres', 'partition-upstream');
    expect(await roundTrip()).toEqual(expect.any(Number));
  });

  test('resets: a connection that carries anything is reset', async () => {
    await toxiproxy.addToxic('worker-postgres', { name: 'reset-upstream', type: 'reset_peer', stream: 'upstream', attributes: { timeout: 0 } });
    expect(await roundTrip()).toBe('reset');
    await toxiproxy.removeToxic('worker-postgres', 'reset-upstream');
    expect(await roundTrip()).toEqual(expect.any(Number));
  });
});
