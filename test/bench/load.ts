/** Load shapes shared by the benchmarks: closed loop (a fixed number in flight) and open loop (a fixed pace). */

export interface Run {
  rate: number;
  p50: number;
  p99: number;
  ids: string[];
}

/** A percentile of latencies sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Completions per second and latency percentiles of a finished run. */
function summarize(ops: number, started: number, latencies: number[], ids: string[]): Run & { seconds: number } {
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rate: ops / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ids, seconds };
}

/** Closed loop: `concurrency` callers, each starting the next operation when its last one answered. */
export async function load(label: string, ops: number, concurrency: number, one: (i: number) => Promise<string>): Promise<Run> {
  const latencies: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < ops; i = next++) {
        const t0 = performance.now();
        ids.push(await one(i));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const run = summarize(ops, started, latencies, ids);
  console.log(
    `${label.padEnd(34)} ${run.rate.toFixed(1).padStart(6)} completions/s   p50 ${run.p50.toFixed(0).padStart(5)} ms   p99 ${run.p99.toFixed(0).padStart(5)} ms   (${ops} in ${run.seconds.toFixed(1)} s, ${concurrency} in flight)`,
  );
  return run;
}

/** Open-loop load: request i leaves at i / rate seconds whatever the answers so far, so latency is measured at that rate. */
export async function paced(label: string, ops: number, rate: number, one: (i: number) => Promise<string>): Promise<Run> {
  const latencies: number[] = [];
  const ids: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ops }, async (_, i) => {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      ids.push(await one(i));
      latencies.push(performance.now() - t0);
    }),
  );
  const run = summarize(ops, started, latencies, ids);
  console.log(
    `${label.padEnd(34)} ${rate.toFixed(1).padStart(6)} requests/s offered   p50 ${run.p50.toFixed(0).padStart(5)} ms   p99 ${run.p99.toFixed(0).padStart(5)} ms   (${ops} in ${run.seconds.toFixed(1)} s)`,
  );
  return run;
}
