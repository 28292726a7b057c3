import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How a deploy script asks the runner of `npm run start:cluster` (src/dev/cluster.ts) to act on its replicas: a
 * request is a JSON file in the runner's `run/requests/` folder, its answer a file beside it. The runner owns its
 * children (their environment, their tether, their restart policy), so it does the stopping and starting itself;
 * a file names which replica and what to do, which a signal cannot, and only the checkout's owner can write there.
 */

export type RunnerRequest =
  | { action: 'status' }
  /** Stop the replica (SIGTERM) and start it again at once, on the compiled build now in place; not counted as a crash. */
  | { action: 'restart'; name: string }
  /** Stop the replica (SIGTERM) and do not start it again. */
  | { action: 'retire'; name: string }
  /** Start as many new workers as the cluster runs, versioned as `buildId`, from the compiled build in `buildDir`. */
  | { action: 'start-workers'; buildId: string; buildDir: string };

export interface ReplicaStatus {
  name: string;
  running: boolean;
  /** The compiled build it runs (the folder holding worker/ and src/). */
  buildDir: string;
  /** Workers only: the Worker Deployment version they poll as, when versioned. */
  deploymentName?: string;
  buildId?: string;
}

export type RunnerAnswer = { ok: true; replicas?: ReplicaStatus[]; started?: string[] } | { ok: false; error: string };

const ANSWER = '.answer.json';

function writeAtomically(file: string, content: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(content), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** The runner's side: handles each request as it appears (checked every `everyMs`), one at a time, until `stop()`. */
export function serveRunnerRequests(dir: string, handle: (request: RunnerRequest) => Promise<RunnerAnswer>, everyMs = 250): { stop: () => void } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Requests left from an earlier run were meant for a runner that is gone.
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
  let stopped = false;
  let timer: NodeJS.Timeout;
  const poll = async () => {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith(ANSWER))) {
      const file = join(dir, name);
      let answer: RunnerAnswer;
      try {
        const request = JSON.parse(readFileSync(file, 'utf8')) as RunnerRequest;
        rmSync(file, { force: true });
        answer = await handle(request);
      } catch (err) {
        rmSync(file, { force: true });
        answer = { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      if (stopped) return;
      writeAtomically(file.replace(/\.json$/, ANSWER), answer);
    }
    if (!stopped) timer = setTimeout(() => void poll(), everyMs);
  };
  timer = setTimeout(() => void poll(), everyMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** The script's side: sends `request` and resolves with the runner's answer; throws on a refusal or after `timeoutMs`. */
export async function askRunner(dir: string, request: RunnerRequest, timeoutMs = 120_000): Promise<RunnerAnswer & { ok: true }> {
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: is the cluster running (npm run start:cluster)?`);
  const id = `${Date.now()}-${randomUUID().slice(0, 8)}`;
  const answerFile = join(dir, `${id}${ANSWER}`);
  writeAtomically(join(dir, `${id}.json`), request);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(answerFile)) {
    if (Date.now() > deadline) {
      rmSync(join(dir, `${id}.json`), { force: true });
      throw new Error(`the cluster's runner did not answer ${JSON.stringify(request)} within ${timeoutMs / 1000} s: is it running?`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const answer = JSON.parse(readFileSync(answerFile, 'utf8')) as RunnerAnswer;
  rmSync(answerFile, { force: true });
  if (!answer.ok) throw new Error(`the cluster's runner refused ${JSON.stringify(request)}: ${answer.error}`);
  return answer;
}
