import { readFileSync } from 'node:fs';
import { Runtime } from '@temporalio/worker';
import { load, percentile } from './load';
import { customerAccounts, funder, startStack, type Stack } from './stack';

/**
 * Sustained load: sandbox funding (HTTP → API → incomingPayment workflow → ledger → webhooks),
 * first at saturation (closed loop, 32 in flight) for a short baseline, then open loop at half
 * the saturation rate for BENCH_SUSTAIN_SECONDS (default 180). Reports the errors (any answer
 * but 200 counts), p50/p99 per minute against the saturation run's, and the resident memory
 * (VmRSS) of the API and worker processes sampled every 10 s: the last minute's average against
 * the first's says whether memory is flat. Nothing is asserted; the figures are read.
 */

const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 180);
const SATURATION_OPS = Number(process.env.BENCH_WORKFLOWS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SAMPLE_MS = 10_000;
const ACCOUNTS = 64;
/** Memory counts as flat when the last minute's average is within this factor of the first's. */
const FLAT = 1.1;

const none = () => undefined;

/** Resident set size of a process in MiB, from /proc (Linux). */
function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Number(kib) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface Answer {
  /** Seconds into the sustained phase the request was due to leave. */
  at: number;
  ms: number;
  error?: string;
}

interface Sample {
  at: number;
  api: number;
  worker: number;
}

/** Open loop at `rate` for `seconds`: request i leaves at i / rate s, whatever the answers so far. */
async function sustain(
  stack: Stack,
  rate: number,
  seconds: number,
  one: (i: number) => Promise<string>,
): Promise<{ answers: Answer[]; samples: Sample[]; seconds: number }> {
  const answers: Answer[] = [];
  const samples: Sample[] = [];
  const started = performance.now();
  const sample = () =>
    samples.push({ at: (performance.now() - started) / 1000, api: rssMiB(stack.services.api.pid), worker: rssMiB(stack.services.worker.pid) });
  sample();
  const sampler = setInterval(() => {
    sample();
    // The bench keeps no webhooks: only the services' memory is measured.
    stack.receiver.received.length = 0;
  }, SAMPLE_MS);
  const ops = Math.round(rate * seconds);
  try {
    await Promise.all(
      Array.from({ length: ops }, async (_, i) => {
        const due = (i * 1000) / rate;
        const wait = started + due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const t0 = performance.now();
        try {
          await one(i);
          answers.push({ at: due / 1000, ms: performance.now() - t0 });
        } catch (err) {
          answers.push({ at: due / 1000, ms: performance.now() - t0, error: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  sample();
  return { answers, samples, seconds: (performance.now() - started) / 1000 };
}

const average = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });
  const stack = await startStack('sustained');
  try {
    const fund = funder(stack, await customerAccounts(stack, ACCOUNTS));
    console.log(
      `sustained load: sandbox funding at saturation (${SATURATION_OPS}, ${CONCURRENCY} in flight), then at half that rate for ${SUSTAIN_SECONDS} s; RSS every ${SAMPLE_MS / 1000} s`,
    );
    await load('warm-up (funding)', 40, CONCURRENCY, fund);
    const saturation = await load('saturation (closed loop)', SATURATION_OPS, CONCURRENCY, fund);
    const rate = saturation.rate / 2;
    const { answers, samples, seconds } = await sustain(stack, rate, SUSTAIN_SECONDS, fund);

    const errors = answers.filter((a) => a.error);
    const minutes = Math.max(1, Math.ceil(SUSTAIN_SECONDS / 60));
    console.log(
      `sustained at ${rate.toFixed(1)} requests/s offered (half of ${saturation.rate.toFixed(1)}/s): ${answers.length} requests, ${errors.length} errors${errors.length === 0 ? '' : ` (e.g. ${[...new Set(errors.map((e) => e.error))].slice(0, 3).join(' | ')})`}`,
    );
    console.log('minute  requests  errors    p50 ms   p99 ms   p99/saturation p99   API RSS MiB   worker RSS MiB');
    const perMinute = Array.from({ length: minutes }, (_, m) => {
      const inMinute = answers.filter((a) => a.at >= m * 60 && a.at < (m + 1) * 60);
      const ok = inMinute
        .filter((a) => !a.error)
        .map((a) => a.ms)
        .sort((a, b) => a - b);
      const memory = samples.filter((s) => s.at >= m * 60 && s.at < (m + 1) * 60);
      const row = { p50: percentile(ok, 50), p99: percentile(ok, 99), api: average(memory.map((s) => s.api)), worker: average(memory.map((s) => s.worker)) };
      console.log(
        `${String(m + 1).padStart(6)}  ${String(inMinute.length).padStart(8)}  ${String(inMinute.length - ok.length).padStart(6)}  ${row.p50.toFixed(0).padStart(8)} ${row.p99.toFixed(0).padStart(8)}   ${(row.p99 / saturation.p99).toFixed(2).padStart(18)}   ${row.api.toFixed(1).padStart(11)}   ${row.worker.toFixed(1).padStart(14)}`,
      );
      return row;
    });
    console.log(`RSS samples (s: API/worker MiB): ${samples.map((s) => `${s.at.toFixed(0)}: ${s.api.toFixed(0)}/${s.worker.toFixed(0)}`).join(', ')}`);
    const all = answers
      .filter((a) => !a.error)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
    console.log(
      `ratio sustained/saturation: throughput ${((answers.length - errors.length) / seconds / saturation.rate).toFixed(2)} (offered 0.50)   p50 ${(percentile(all, 50) / saturation.p50).toFixed(2)}   p99 ${(percentile(all, 99) / saturation.p99).toFixed(2)}`,
    );
    const first = perMinute[0]!;
    const last = perMinute[perMinute.length - 1]!;
    const flat = (ratio: number) => (ratio <= FLAT ? 'flat' : 'GROWING');
    const apiRatio = last.api / first.api;
    const workerRatio = last.worker / first.worker;
    console.log(
      `memory last minute/first minute: API ${apiRatio.toFixed(2)} (${flat(apiRatio)})   worker ${workerRatio.toFixed(2)} (${flat(workerRatio)})   p99 last/first minute ${(last.p99 / first.p99).toFixed(2)}`,
    );
    if (errors.length > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
