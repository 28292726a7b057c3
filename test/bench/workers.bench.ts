import { Runtime } from '@temporalio/worker';
import { cpuDuring, perOperationCpu } from './cpu';
import { engineStats, printEngineStats } from './engine-stats';
import { load, type Run } from './load';
import { payoutDriver } from './payouts-driver';
import { customerAccounts, funder, startStack, type Stack } from './stack';

/**
 * One worker process against two, the same workload on the same stack in the same run: payouts to
 * COMPLETED and sandbox fundings, closed loop. Every worker polls every queue it is given (by default
 * all the queues per context), as start:cluster's two workers do; the second joins and leaves between
 * phases (a leaving worker drains its tasks first). Prints completions/s and p99 with each count, the
 * 2/1 ratio, the CPU per operation of each process, and what the workers' SDK saw. On a machine of
 * two cores the ratio cannot exceed ~1 (the cores are already busy); on a bigger one it is the
 * scaling the service gets from a second worker.
 */

const OPS = Number(process.env.BENCH_WORKFLOWS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_WORKER_ROUNDS ?? 1);
const ACCOUNTS = 64;

const none = () => undefined;

async function withWorkers(stack: Stack, count: number): Promise<void> {
  while (stack.workers().length < count) await stack.addWorker();
  while (stack.workers().length > count) await stack.removeWorker();
}

async function measured(stack: Stack, label: string, one: (i: number) => Promise<string>): Promise<Run> {
  const before = engineStats(await stack.sdkMetricsText());
  const { result, cpuMs } = await cpuDuring(stack.pids(), () => load(label, OPS, CONCURRENCY, one));
  console.log(`  CPU: ${perOperationCpu(cpuMs, OPS)}`);
  printEngineStats('SDK', before, engineStats(await stack.sdkMetricsText()), OPS);
  return result;
}

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });
  const stack = await startStack('workers', { workers: 1 });
  try {
    const accounts = await customerAccounts(stack, ACCOUNTS);
    const fund = funder(stack, accounts);
    const driver = await payoutDriver(stack, accounts);
    stack.cleanup.unshift(async () => driver.stop());
    console.log(`1 vs 2 worker processes: ${OPS} payouts and ${OPS} fundings with each, ${CONCURRENCY} in flight, on ${stack.engine}`);
    await load('warm-up (funding)', 40, CONCURRENCY, fund);
    await load('warm-up (payout)', 40, CONCURRENCY, driver.payout);
    const rates: Record<1 | 2, { payouts: number[]; funding: number[] }> = { 1: { payouts: [], funding: [] }, 2: { payouts: [], funding: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      for (const count of [1, 2] as const) {
        await withWorkers(stack, count);
        const suffix = `, ${count} worker${count === 1 ? '' : 's'}`;
        rates[count].payouts.push((await measured(stack, `payout to COMPLETED${suffix}`, driver.payout)).rate);
        rates[count].funding.push((await measured(stack, `sandbox funding${suffix}`, fund)).rate);
      }
    }
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    console.log(
      `ratio 2 workers/1 worker (completions per second): payouts ${(sum(rates[2].payouts) / sum(rates[1].payouts)).toFixed(2)}   funding ${(sum(rates[2].funding) / sum(rates[1].funding)).toFixed(2)}`,
    );
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
