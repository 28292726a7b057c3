import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in milliseconds; 0 once it is gone. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL process (the bench's cluster is the test cluster; its other databases sit idle). */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

export type CpuShares = Record<string, number>;

/**
 * Runs `work` and reports the CPU milliseconds each part of the stack spent meanwhile: the named
 * processes, PostgreSQL (all its processes) and this bench process (the load's clients, and the
 * template's worker when it runs here). On a machine of few cores their sum per operation is what
 * bounds the throughput.
 */
export async function cpuDuring<T>(processes: Record<string, number | undefined>, work: () => Promise<T>): Promise<{ result: T; cpuMs: CpuShares }> {
  const read = (): CpuShares => ({
    ...Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, pid ? cpuMsOf(pid) : 0])),
    bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  // PostgreSQL backends come and go: each one alive at the end counts from the start (or its birth).
  const pgBefore = new Map(postgresPids().map((pid) => [pid, cpuMsOf(pid)]));
  const before = read();
  const result = await work();
  const after = read();
  const postgres = postgresPids().reduce((sum, pid) => sum + Math.max(0, cpuMsOf(pid) - (pgBefore.get(pid) ?? 0)), 0);
  return { result, cpuMs: { ...Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - before[k]!])), postgres } };
}

/** "api 12.1 · worker 8.0 · … · total 40.2" ms per operation. */
export function perOperationCpu(cpuMs: CpuShares, operations: number): string {
  const parts = Object.entries(cpuMs).map(([name, ms]) => `${name} ${(ms / operations).toFixed(1)}`);
  const total = Object.values(cpuMs).reduce((a, b) => a + b, 0) / operations;
  return `${parts.join(' · ')} · total ${total.toFixed(1)} CPU ms per operation`;
}
