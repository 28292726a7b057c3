/**
 * When `npm run start:cluster` starts an API or worker replica again after it exited (src/dev/cluster.ts does the
 * starting): back-off that doubles from `firstDelayMs` to `maxDelayMs` over runs that each ended soon after they
 * began, back to `firstDelayMs` once a run lasted `resetAfterUpMs`; and a replica that exited `giveUpAfterExits`
 * times within `giveUpWindowMs` is not started again (it crashes for a reason a restart will not cure).
 * Pure: the runner keeps each replica's runs and asks.
 */
export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  resetAfterUpMs: number;
  giveUpAfterExits: number;
  giveUpWindowMs: number;
}

export const REPLICA_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 10_000,
  resetAfterUpMs: 60_000,
  giveUpAfterExits: 5,
  giveUpWindowMs: 60_000,
};

/** One run of a replica: when it was started and when it exited (ms, any common clock). */
export interface ReplicaRun {
  startedAt: number;
  exitedAt: number;
}

export type RestartDecision = { restart: true; afterMs: number; exitsInWindow: number } | { restart: false; exitsInWindow: number; windowMs: number };

/** What to do after the last of `runs` (oldest first) ended. */
export function decideRestart(runs: readonly ReplicaRun[], policy: RestartPolicy = REPLICA_RESTART_POLICY): RestartDecision {
  const last = runs.at(-1);
  if (!last) throw new Error('decideRestart needs the run that just ended');
  const exitsInWindow = runs.filter((run) => run.exitedAt > last.exitedAt - policy.giveUpWindowMs).length;
  if (exitsInWindow >= policy.giveUpAfterExits) return { restart: false, exitsInWindow, windowMs: policy.giveUpWindowMs };
  // Short runs in a row, newest first: each one doubles the wait; a long run ends the streak.
  let shortRuns = 0;
  for (let i = runs.length - 1; i >= 0 && runs[i]!.exitedAt - runs[i]!.startedAt < policy.resetAfterUpMs; i--) shortRuns++;
  const afterMs = Math.min(policy.firstDelayMs * 2 ** Math.max(0, shortRuns - 1), policy.maxDelayMs);
  return { restart: true, afterMs, exitsInWindow };
}
