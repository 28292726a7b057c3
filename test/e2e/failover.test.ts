import { failedChecks, figureLines, runFailoverDrill } from '../proof/drills/failover';
import { prepareCompiledTopology, takeTopologyTurn, whenTemporalServerBuilt } from '../support/production-topology';

// `npm run drill -- failover`, short: the production topology on a PostgreSQL primary with a synchronous standby,
// every client through the PostgreSQL front; 12 payouts run while the replication link stalls for a second and
// the primary is killed (kill -9), then `npm run failover` promotes the standby. Every payout acknowledged to the
// partner is on the new primary and COMPLETED, nothing failed after retries, the ledger balances, no process was
// restarted, and the service serves again.

const maybe = whenTemporalServerBuilt('test/e2e/failover.test.ts');

// One production topology at a time (test/support/production-topology.ts), on the compiled build brought up to date once.
let release: (() => void) | undefined;

afterAll(() => release?.());

maybe(
  'a synchronous standby takes over from a killed primary under payout load: nothing acknowledged is lost, every payout completes, no process restarts',
  async () => {
    release = await takeTopologyTurn();
    prepareCompiledTopology();
    const figures = await runFailoverDrill({
      name: 'failover-ci',
      mode: 'sync',
      payouts: 12,
      inFlight: 4,
      stallMs: 1_000,
      say: () => undefined,
    });
    console.log(figureLines(figures).join('\n'));

    expect(failedChecks(figures)).toEqual([]);
    expect(figures.acknowledged).toBe(13);
    expect(figures.missing).toEqual([]);
    expect(figures.states).toEqual({ COMPLETED: 13 });
    expect(figures.failoverSteps.some((line) => /\[failover\] done in \d+ ms \(cut \d+, fence \d+, promote \d+, point \d+, check \d+\)/.test(line))).toBe(true);
    for (const ms of [figures.firstPayoutMs, ...Object.values(figures.readyAgainMs)]) expect(ms).toBeGreaterThanOrEqual(0);
  },
  1_800_000,
);
