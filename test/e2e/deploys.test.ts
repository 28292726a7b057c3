import { failedChecks, figureLines, runDeploysDrill } from '../proof/drills/deploys';
import { prepareCompiledTopology, takeTopologyTurn, whenTemporalServerBuilt } from '../support/production-topology';

// `npm run drill -- deploys` in short (test/proof/drills/deploys.ts): the production topology of its own, workers
// versioned as build A, payouts running without pause (4 in flight); (a) both APIs restarted one at a time, drained in HAProxy first, by the
// module `npm run deploy:apis` runs (src/dev/rolling-deploy.ts): no request fails; (b) build B (dist/ copied into
// a folder of its own: the same code, without a second compile) joins, is made current, A drains (the server's
// drainage checks every 5 s here, 30 s in production) and its workers stop: every payout COMPLETED, those executed
// before the switch on A, after it on B, the ledger audit clean.

const maybe = whenTemporalServerBuilt('test/e2e/deploys.test.ts');

maybe(
  'APIs restarted one at a time with no failed request; a new worker build made current while payouts run, the old one drained and stopped, every payout COMPLETED on its build',
  async () => {
    // The compiled build the stack runs, as bin/drill provides it; one production topology at a time.
    prepareCompiledTopology();
    const releaseTurn = await takeTopologyTurn();
    try {
      const result = await runDeploysDrill({ name: 'e2e-deploys', payouts: 24, inFlight: 4, buildB: 'copy', drainage: 'quick' });
      console.log(figureLines(result).join('\n'));

      expect(result.requests.failed).toEqual([]);
      expect(result.apis.replicas.map((r) => r.name)).toEqual(['api-1', 'api-2']);
      expect(result.workers).toMatchObject({ deploymentName: 'payments-drill', from: ['A'], to: 'B', retired: ['worker-1', 'worker-2'] });
      expect(result.payouts.completed).toBe(result.payouts.count);
      expect(result.payouts.misplaced).toEqual([]);
      expect(result.payouts.onA).toBeGreaterThan(0);
      expect(result.payouts.onB).toBeGreaterThan(0);
      expect(result.oldWorkersRunning).toEqual([]);
      expect(Object.values(result.unplannedExits).every((n) => n === 0)).toBe(true);
      expect(result.auditFindings).toEqual([]);
      expect(failedChecks(result)).toEqual([]);
    } finally {
      releaseTurn();
    }
  },
  1_800_000,
);
