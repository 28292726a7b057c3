import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { acquireRunnerLock } from '../../src/dev/runner-lock';
import { eventually } from './eventually';

/**
 * What a test that starts the production topology (the Temporal server on PostgreSQL, APIs behind HAProxy, workers
 * from the compiled build) needs, in one place: whether the Temporal server is built (the test is skipped, saying
 * so, when it is not), the compiled build brought up to date once for every such test (bin/lib/compiled-build.sh:
 * one compiles under a lock, the others find it current), HAProxy, and a turn: one such topology at a time per
 * checkout, so that two jest workers never run two of them on the same two cores.
 */

const root = resolve(__dirname, '../..');

export const temporalServerBuilt = spawnSync('bash', [join(root, 'bin/lib/temporal-server.sh'), '--cached'], { stdio: 'ignore' }).status === 0;

/** `test`, or `test.skip` with a warning naming the file when the Temporal server is not built. */
export function whenTemporalServerBuilt(file: string): jest.It {
  if (!temporalServerBuilt) console.warn(`${file} skipped: the Temporal server is not built yet (bin/lib/temporal-server.sh builds it; .ci/run does)`);
  return temporalServerBuilt ? test : test.skip;
}

/** dist/ up to date and HAPROXY set, as bin/drill provides them. */
export function prepareCompiledTopology(): void {
  const compiled = spawnSync('bash', [join(root, 'bin/lib/compiled-build.sh')], { cwd: root, encoding: 'utf8' });
  if (compiled.status !== 0) throw new Error(`bin/lib/compiled-build.sh failed: ${compiled.stderr}`);
  const haproxy = spawnSync('bash', [join(root, 'bin/lib/haproxy.sh')], { encoding: 'utf8' });
  if (haproxy.status !== 0) throw new Error(`bin/lib/haproxy.sh failed: ${haproxy.stderr}`);
  process.env.HAPROXY = haproxy.stdout.trim();
}

/** Waits for this checkout's turn to run a production topology; resolves with its release. */
export async function takeTopologyTurn(timeoutMs = 1_800_000): Promise<() => void> {
  mkdirSync(join(root, '.data'), { recursive: true });
  const file = join(root, '.data/production-topology-turn.pid');
  let release: (() => void) | undefined;
  await eventually(
    async () => acquireRunnerLock(file),
    (lock) => {
      if (lock.acquired) release = lock.release;
      // A file of this jest worker that ended without its release (a failed beforeAll) does not hold the next one off.
      else if (lock.holderPid === process.pid) release = () => rmSync(file, { force: true });
      return release !== undefined;
    },
    timeoutMs,
  );
  return release!;
}
