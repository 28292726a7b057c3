import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { LastLines } from './last-lines';
import { decideRestart, REPLICA_RESTART_POLICY, type ReplicaRun, type RestartPolicy } from './restart-policy';

/**
 * The children of `npm run start:cluster` (src/dev/cluster.ts): a replica (API or worker, named `api-N`, `worker-N`)
 * that exits is started again as the restart policy says, and one that keeps crashing ends the run; any other child
 * (the Temporal server, its UI, HAProxy) exiting ends it at once: the replicas cannot work without it. Ending the
 * run (stopping the rest) is the caller's `stopEverything`; children's output passes through to `out`.
 */
export interface SupervisorOptions {
  /** Starts one process of child `name` (the runner tethers it, bin/lib/tethered.sh), stdout and stderr piped. */
  spawnChild: (name: string, command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess;
  say: (line: string) => void;
  stopEverything: () => void;
  out?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  policy?: RestartPolicy;
}

/** What the runner calls its children that are not replicas, when one of them exits. */
const INFRASTRUCTURE: Record<string, string> = {
  temporal: 'the Temporal server',
  'temporal-ui': 'the Temporal Web UI',
  haproxy: 'HAProxy',
  'pg-front': 'the PostgreSQL front',
};
export const isReplica = (name: string) => /^(api|worker)-\d+$/.test(name);

export class Supervisor {
  /** In start order, each with its current process (stop them in reverse: src/dev/stop-children.ts). */
  readonly children: { name: string; proc: ChildProcess }[] = [];
  private readonly pendingRestarts = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: SupervisorOptions) {}

  /** From now on an exit is expected: nothing is started again, nothing more is said. */
  stop(): void {
    this.stopped = true;
    this.pendingRestarts.forEach((timer) => clearTimeout(timer));
    this.pendingRestarts.clear();
  }

  start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
    const { say, out = { stdout: process.stdout, stderr: process.stderr }, policy = REPLICA_RESTART_POLICY } = this.options;
    const entry = { name, proc: undefined as unknown as ChildProcess };
    this.children.push(entry);
    // Kept across its runs, for the message if it keeps crashing.
    const output = new LastLines(20);
    const runs: ReplicaRun[] = [];
    const run = () => {
      const proc = this.options.spawnChild(name, command, args, env);
      proc.stdout?.on('data', (chunk: Buffer) => (out.stdout.write(chunk), output.add(chunk)));
      proc.stderr?.on('data', (chunk: Buffer) => (out.stderr.write(chunk), output.add(chunk)));
      entry.proc = proc;
      const startedAt = Date.now();
      proc.once('exit', (code, signal) => {
        if (this.stopped) return;
        const how = exitDescription(code, signal);
        if (!isReplica(name)) {
          say(`${INFRASTRUCTURE[name] ?? name} (${name}) exited (${how}); the replicas cannot work without it: stopping everything`);
          return this.giveUp();
        }
        runs.push({ startedAt, exitedAt: Date.now() });
        const decision = decideRestart(runs, policy);
        if (!decision.restart) {
          const lines = output.last().map((line) => `  | ${line}`);
          say(
            `${name} exited ${decision.exitsInWindow} times within ${decision.windowMs / 1000} s (the last: ${how}); not starting it again: stopping everything. Its last log lines:\n${lines.join('\n') || '  | (none)'}`,
          );
          return this.giveUp();
        }
        const meanwhile = name.startsWith('api-') ? 'HAProxy sends its requests to the other API' : 'the other worker polls its task queues';
        say(`${name} exited (${how}); starting it again in ${decision.afterMs / 1000} s (${meanwhile})`);
        const timer = setTimeout(() => {
          this.pendingRestarts.delete(timer);
          if (!this.stopped) run();
        }, decision.afterMs);
        this.pendingRestarts.add(timer);
      });
      return proc;
    };
    return run();
  }

  private giveUp(): void {
    this.stop();
    this.options.stopEverything();
  }
}

/** "SIGKILL", "code 1": the tether (bin/lib/tethered.sh) exits 128+N when its command died of signal N. */
export function exitDescription(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return signal;
  const name = code !== null && code > 128 ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return name ?? `code ${code}`;
}
