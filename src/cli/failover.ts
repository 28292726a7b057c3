import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { failOver } from '../dev/postgres-front';

/**
 * `npm run failover [-- <folder>]`: the PostgreSQL standby takes over. Cuts the front's sessions to the primary,
 * fences the primary (stopped, read-only if started again), promotes the standby and points the front at it,
 * printing each step's time. The folder holds the front's postgres-front.json (start:cluster's .data/cluster by
 * default, CLUSTER_DATA_DIR when set). Exits 1, saying which step failed, if one does.
 */
// Run by tsx from src/cli/, or compiled from dist/src/cli/ (the drill runs that: no transpiling on the clock).
const root = [resolve(__dirname, '../..'), resolve(__dirname, '../../..')].find((dir) => existsSync(join(dir, 'bin/lib/postgres.sh')))!;
const dir = resolve(process.argv[2] ?? process.env.CLUSTER_DATA_DIR ?? resolve(root, '.data/cluster'));

async function main(): Promise<void> {
  const started = performance.now();
  const steps = await failOver(root, dir, (line) => process.stdout.write(`[failover] ${line}\n`));
  const total = Math.round(performance.now() - started);
  process.stdout.write(`[failover] done in ${total} ms (${steps.map((s) => `${s.step} ${s.ms}`).join(', ')})\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`[failover] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
