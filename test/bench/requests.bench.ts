import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request, Agent } from 'undici';
import { freePort, waitForPort } from '../../src/dev/ports';
import { cpuDuring } from './cpu';
import { payoutDriver } from './payouts-driver';
import { customerAccounts, startStack, type Stack } from './stack';

/**
 * The API's own cost per authenticated request (issue 34's target: at most 3 CPU ms), against a bare Express
 * app's per request in the same run: the same HTTP stack (Node's server, Express, its JSON body parser) with no
 * authentication, idempotency, validation, database or logging. CPU milliseconds of each process over
 * BENCH_REQUESTS requests (default 2,000), 8 at a time on kept-alive connections, for a read
 * (`GET /customers/{id}`) and a write (`POST /customers`, with an Idempotency-Key). Speed is read here, never in tests.
 */

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = 8;

/** A bare Express app in a process of its own: a GET answering a customer-sized JSON body and a POST parsing and answering one. */
const BARE_APP = `
const express = require('express');
const app = express();
app.use(express.json());
const body = ${JSON.stringify({
  id: 'Customer:019a0000-0000-7000-8000-000000000000',
  platformCustomerId: 'bench-0',
  customerType: 'INDIVIDUAL',
  umaAddress: '$bench-0@bench.example',
  kycStatus: 'APPROVED',
  fullName: 'Bench Customer',
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
  isDeleted: false,
})};
app.get('/customers/:id', (req, res) => res.json({ ...body, id: req.params.id }));
app.post('/customers', (req, res) => res.status(201).json({ ...body, ...req.body }));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

async function bareApp(): Promise<{ base: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['-e', BARE_APP], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  await waitForPort(port, 30_000);
  return { base: `http://127.0.0.1:${port}`, proc };
}

/** `count` requests, CONCURRENCY at a time, each made by `send(i)`; throws on an unexpected status. */
async function run(count: number, send: (i: number) => Promise<number>, expected: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) {
        const status = await send(i);
        if (status !== expected) throw new Error(`request ${i} answered ${status}, not ${expected}`);
      }
    }),
  );
}

async function main(): Promise<void> {
  // The per-platform rate limit would answer 429 once the API is quick enough: this section measures a request's
  // cost, not the limit, so the API it starts (which inherits this environment) gets one far above the load.
  process.env.RATE_LIMIT_PER_SECOND ??= '100000';
  process.env.RATE_LIMIT_BURST ??= '100000';
  const stack: Stack = await startStack('requests');
  const bare = await bareApp();
  const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  try {
    const send = async (url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: unknown) => {
      const res = await request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
      await res.body.text();
      return res.statusCode;
    };
    const customer = await stack.call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'requests-0', fullName: 'Bench Customer' });
    const read = (base: string, auth: Record<string, string>) => () => send(`${base}/customers/${String(customer.id)}`, 'GET', auth);
    const write = (base: string, auth: Record<string, string>) => (i: number) =>
      send(
        `${base}/customers`,
        'POST',
        { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        { customerType: 'INDIVIDUAL', platformCustomerId: `requests-${randomUUID()}-${i}`, fullName: 'Bench Customer' },
      );
    const serviceAuth = { authorization: stack.auth };
    // Warm both up (JIT, connection pools, the token cache) before anything is counted.
    await run(200, read(stack.base, serviceAuth), 200);
    await run(50, write(stack.base, serviceAuth), 201);
    await run(200, read(bare.base, {}), 200);
    await run(50, write(bare.base, {}), 201);

    const apiPid = stack.pids().api;
    const measure = async (label: string, servicePart: () => Promise<void>, barePart: () => Promise<void>, count: number) => {
      const before = await stack.dbWork();
      const service = await cpuDuring({ api: apiPid }, servicePart);
      const after = await stack.dbWork();
      const baseline = await cpuDuring({ bare: bare.proc.pid }, barePart);
      const serviceMs = service.cpuMs.api! / count;
      const bareMs = baseline.cpuMs.bare! / count;
      console.log(
        `${label.padEnd(42)} API ${serviceMs.toFixed(2)} CPU ms per request · bare Express ${bareMs.toFixed(2)} · ratio ${(serviceMs / bareMs).toFixed(1)}× · ` +
          `PostgreSQL ${(service.cpuMs.postgres! / count).toFixed(2)} ms per request · ${((after.statements - before.statements) / count).toFixed(1)} SQL statements, ` +
          `${((after.transactions - before.transactions) / count).toFixed(1)} transactions per request (API and worker; target: API ≤ 3 ms)`,
      );
    };
    console.log(`API CPU per authenticated request (${REQUESTS} reads, ${REQUESTS / 4} writes, ${CONCURRENCY} at a time; ${stack.engine}):`);
    await measure(
      'GET /customers/{id}',
      () => run(REQUESTS, read(stack.base, serviceAuth), 200),
      () => run(REQUESTS, read(bare.base, {}), 200),
      REQUESTS,
    );
    await measure(
      'POST /customers (Idempotency-Key)',
      () => run(REQUESTS / 4, write(stack.base, serviceAuth), 201),
      () => run(REQUESTS / 4, write(bare.base, {}), 201),
      REQUESTS / 4,
    );

    // The payout path's two requests: a quote (its workflow started), then its execution (an update of that workflow).
    const payouts = REQUESTS / 4;
    const driver = await payoutDriver(stack, await customerAccounts(stack, 4));
    driver.stop();
    const quoteIds: string[] = [];
    await measure(
      'POST /quotes',
      () => run(payouts, async (i) => (quoteIds.push((await driver.quoteIds(i)).quoteId), 201), 201),
      () => run(payouts, write(bare.base, {}), 201),
      payouts,
    );
    await measure(
      'POST /quotes/{id}/execute',
      () => run(payouts, (i) => send(`${stack.base}/quotes/${quoteIds[i]}/execute`, 'POST', { ...serviceAuth, 'idempotency-key': randomUUID() }), 200),
      () => run(payouts, write(bare.base, {}), 201),
      payouts,
    );
  } finally {
    await dispatcher.close();
    bare.proc.kill('SIGKILL');
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
