import { runRestoreDrill } from '../proof/drills/restore';
import { prepareCompiledTopology, takeTopologyTurn, whenTemporalServerBuilt } from '../support/production-topology';

// The backup and restore drill's short form (`npm run drill -- restore` is the long one, docs/production.md "Backup and
// restore"): the production topology with WAL archiving, a few payouts while `npm run backup` runs and a few after,
// the stack stopped, `npm run restore -- <backup> --to backup` into a new cluster and the topology started on it.
// The restored service knows every payout answered before the backup and none made after its restore point, has one
// workflow run per payout and completes the open ones, its ledger audit is clean, and a new payout completes.

const maybe = whenTemporalServerBuilt('test/e2e/restore.test.ts');

// One production topology at a time (test/support/production-topology.ts), on the compiled build brought up to date once.
let release: (() => void) | undefined;
afterAll(() => release?.());

maybe(
  'a backup taken under payouts, restored into a new cluster to its restore point: consistent, complete, nothing twice, nothing after the point',
  async () => {
    release = await takeTopologyTurn();
    prepareCompiledTopology();
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
  1_800_000,
);
