import { Runtime } from '@temporalio/worker';
import { FormData, request } from 'undici';
import { load } from './load';
import { BENCH_UMA_DOMAIN, startStack } from './stack';

/**
 * Bulk customer import against single POST /customers calls, in the same run, on the same
 * stack (API and worker processes as `npm start` runs them, webhooks delivered to a local
 * receiver). The baseline is BENCH_BULK_SINGLES customers created one request each with
 * BENCH_CONCURRENCY in flight; the import is one BENCH_BULK_ROWS-row CSV, timed from the upload
 * to the job's COMPLETED. Prints rows per second of each and their ratio. No threshold.
 */

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 10_000);
const SINGLES = Number(process.env.BENCH_BULK_SINGLES ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const none = () => undefined;

const COLUMNS = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';
const cells = (id: string) => [`$${id}@${BENCH_UMA_DOMAIN}`, id, 'INDIVIDUAL', `Bench ${id}`, '1985-06-01', '1 Main St', 'Austin', 'TX', '78701', 'US'];
const body = (id: string) => ({
  customerType: 'INDIVIDUAL',
  umaAddress: `$${id}@${BENCH_UMA_DOMAIN}`,
  platformCustomerId: id,
  fullName: `Bench ${id}`,
  birthDate: '1985-06-01',
  address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
});

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });
  const stack = await startStack('bulk');
  try {
    const { base, auth, call } = stack;
    console.log(`bulk customer import vs single POST /customers: ${ROWS} rows in one CSV; ${SINGLES} single calls, ${CONCURRENCY} in flight`);
    await load('warm-up (POST /customers)', 50, CONCURRENCY, async (i) => String((await call('POST', '/customers', body(`warm-${i}`))).id));
    const singles = await load('POST /customers', SINGLES, CONCURRENCY, async (i) => String((await call('POST', '/customers', body(`single-${i}`))).id));

    // The single calls' webhooks are delivered by workflows of their own after the answers; let
    // that backlog drain first, so that the import is not timed waiting behind it.
    const drainStarted = performance.now();
    for (let seen = -1; stack.receiver.received.length !== seen && performance.now() - drainStarted < 300_000;) {
      seen = stack.receiver.received.length;
      await new Promise((r) => setTimeout(r, 3_000));
    }
    console.log(
      `(webhooks of the single calls delivered: ${stack.receiver.received.length}, waited ${((performance.now() - drainStarted) / 1000).toFixed(0)} s)`,
    );

    const csv = [COLUMNS, ...Array.from({ length: ROWS }, (_, i) => cells(`bulk-${i}`).join(','))].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
    const started = performance.now();
    const res = await request(`${base}/customers/bulk/csv`, { method: 'POST', headers: { authorization: auth }, body: form });
    const accepted = (await res.body.json()) as { jobId: string };
    if (res.statusCode !== 202) throw new Error(`upload answered ${res.statusCode} ${JSON.stringify(accepted)}`);
    const acceptedMs = performance.now() - started;
    let job: { status: string; progress: { processed: number; successful: number; failed: number } };
    let lastReport = started;
    for (;;) {
      job = (await call('GET', `/customers/bulk/jobs/${accepted.jobId}`)) as typeof job;
      if (job.status === 'COMPLETED' || job.status === 'FAILED') break;
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        console.log(`  … ${job.progress.processed}/${ROWS} rows after ${((lastReport - started) / 1000).toFixed(0)} s`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = ROWS / seconds;
    console.log(
      `${'bulk import (CSV upload to COMPLETED)'.padEnd(34)} ${rate.toFixed(1).padStart(6)} rows/s          upload answered in ${acceptedMs.toFixed(0)} ms   (${ROWS} rows in ${seconds.toFixed(1)} s: ${job.progress.successful} created, ${job.progress.failed} failed, ${job.status})`,
    );

    let runs = 0;
    for await (const _run of stack.client.workflow.list({ query: `WorkflowId = '${accepted.jobId}'` })) runs++;
    console.log(`workflow runs of the job (continue-as-new): ${runs}`);
    console.log(`ratio bulk/single (customers created per second): ${(rate / singles.rate).toFixed(2)}`);
  } finally {
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
