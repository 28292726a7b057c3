import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { runRestoreDrill } from '../proof/drills/restore';

// The backup and restore drill's short form (`npm run drill:restore` is the long one, docs/production.md "Backup and
// restore"): the production topology with WAL archiving, a few payouts while `npm run backup` runs and a few after,
// the stack stopped, `npm run restore -- <backup> --to backup` into a new cluster and the topology started on it.
// The restored service knows every payout answered before the backup and none made after its restore point, has one
// workflow run per payout and completes the open ones, its ledger audit is clean, and a new payout completes.

const root = resolve(__dirname, '../..');
const built = spawnSync('bash', [join(root, 'bin/lib/temporal-server.sh'), '--cached'], { stdio: 'ignore' }).status === 0;
if (!built) {
  console.warn('test/e2e/restore.test.ts skipped: the Temporal server is not built yet (bin/lib/temporal-server.sh builds it; .ci/run does)');
}
const maybe = built ? test : test.skip;

beforeAll(() => {
  if (!built) return;
  // ClusterStack runs the compiled build behind HAProxy, as bin/drill-restore provides them.
  const compiled = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (compiled.status !== 0) throw new Error('npm run build failed');
  const haproxy = spawnSync('bash', [join(root, 'bin/lib/haproxy.sh')], { encoding: 'utf8' });
  if (haproxy.status !== 0) throw new Error(`bin/lib/haproxy.sh failed: ${haproxy.stderr}`);
  process.env.HAPROXY = haproxy.stdout.trim();
}, 600_000);

maybe(
  'a backup taken under payouts, restored into a new cluster to its restore point: consistent, complete, nothing twice, nothing after the point',
  async () => {
    const { figures, failures } = await runRestoreDrill({
      name: 'e2e-restore',
      payoutsBefore: 8,
      payoutsAfter: 4,
      inFlight: 4,
      say: () => undefined,
    });
    console.log(`restore drill (short form): ${JSON.stringify(figures)}`);
    expect(failures).toEqual([]);
    expect(figures.goneAfterPoint).toBeGreaterThanOrEqual(4);
    expect(figures.executedAtPoint).toBeGreaterThanOrEqual(4);
  },
  900_000,
);
