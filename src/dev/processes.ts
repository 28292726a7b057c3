import { readFileSync, readdirSync } from 'node:fs';

/** Small Linux process helpers for the dev runner (/proc based; no native code). */

/** Field 22 of /proc/<pid>/stat (clock ticks after boot): with the pid, it names one process for good. */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/** The process `pid` started at `start` is still there (not a recycled pid, not a zombie). */
export function isSameProcess(pid: number, start: string): boolean {
  return startTime(pid) === start;
}

/** "<pid> <start time>", as the dev runner's lock and bin/lib/tethered.sh's pid files hold it. */
export function parseProcessRecord(text: string): { pid: number; start: string } | undefined {
  const [pid, start] = text.trim().split(/\s+/);
  return pid && start && /^\d+$/.test(pid) ? { pid: Number(pid), start } : undefined;
}

export function processRecord(pid: number): string {
  return `${pid} ${startTime(pid) ?? ''}\n`;
}

/** Processes whose command line contains every one of `parts` (as whole arguments). */
export function processesWithArgs(parts: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (parts.every((p) => args.includes(p)) && startTime(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it is gone. */
export async function stopProcess(pid: number, graceMs = 10_000): Promise<void> {
  const start = startTime(pid);
  if (!start) return;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isSameProcess(pid, start)) {
    if (Date.now() > deadline) {
      signal('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      if (!isSameProcess(pid, start)) return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
