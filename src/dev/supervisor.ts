import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { LastLines } from './last-lines';
import { decideRestart, REPLICA_RESTART_POLICY, type ReplicaRun, type RestartPolicy } from './restart-policy';

/**
 * The children of `npm run start:cluster` (src/dev/cluster.ts): a replica (API, worker or Temporal server node, named
 * `api-N`, `worker-N`, `temporal-N`) that exits is started again as the restart policy says, and one that keeps
 * crashing ends the run; any other child (HAProxy in front of the Temporal nodes, the Web UI, HAProxy) exiting ends it at once: the replicas cannot work without it. Ending the
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
  'temporal-lb': "HAProxy in front of the Temporal server's nodes",
  'temporal-ui': 'the Temporal Web UI',
  haproxy: 'HAProxy',
  'pg-front': 'the PostgreSQL front',
};
/** An API, a worker or a Temporal server node (`temporal-N`, one of several in one ring): another one serves while it restarts. */
export const isReplica = (name: string) => /^(api|worker|temporal)-\d+$/.test(name);

/** What serves meanwhile, in the runner's line about a replica it starts again. */
function meanwhileFor(name: string): string {
  if (name.startsWith('api-')) return 'HAProxy sends its requests to the other API';
  if (name.startsWith('temporal-'))
    return "the other Temporal node serves: HAProxy sends the frontend connections to it, and the ring moves this node's shards to it if it stays down";
  return 'the other worker polls its task queues';
}

export class Supervisor {
  /** In start order, each with its current process (stop them in reverse: src/dev/stop-children.ts). */
  readonly children: { name: string; proc: ChildProcess }[] = [];
  private readonly pendingRestarts = new Set<NodeJS.Timeout>();
  /** Replicas stopped on request (a rolling deploy): what to do when each exits, instead of counting a crash. */
  private readonly requested = new Map<string, { then: 'restart' | 'retire'; done: () => void }>();
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
        const request = this.requested.get(name);
        if (request) {
          this.requested.delete(name);
          say(`${name} stopped on request (${how}); ${request.then === 'restart' ? 'starting it again now' : 'not starting it again'}`);
          if (request.then === 'restart') run();
          return request.done();
        }
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
        say(`${name} exited (${how}); starting it again in ${decision.afterMs / 1000} s (${meanwhileFor(name)})`);
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

  /**
   * Stops replica `name` as a deploy asks (SIGTERM: an API ends its requests, a worker its tasks) and then starts it
   * again at once, on whatever its command now runs (`restart`), or leaves it stopped (`retire`). Neither counts
   * as a crash in the restart policy. Resolves once it exited (and, for `restart`, its new process is spawned).
   */
  stopOnRequest(name: string, then: 'restart' | 'retire'): Promise<void> {
    const entry = this.children.find((child) => child.name === name);
    if (!entry || !isReplica(name)) return Promise.reject(new Error(`no replica named ${name}`));
    if (this.requested.has(name)) return Promise.reject(new Error(`${name} is already being stopped on request`));
    const { proc } = entry;
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.reject(new Error(`${name} is not running (it is waiting to be started again)`));
    return new Promise((done) => {
      this.requested.set(name, { then, done });
      proc.kill('SIGTERM');
    });
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
