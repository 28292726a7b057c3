import { LEDGER_AUDIT_CONTRIBUTORS } from '../../src/contexts/ledger-audit';
import { cardLedgerAudit } from '../../src/contexts/cards/services/card-ledger-audit';
import { stablecoinLedgerAudit } from '../../src/contexts/stablecoins/services/stablecoin-ledger-audit';
import { runLedgerAuditWith } from '../../src/contexts/ledger/services/audit';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

// The ledger knows no higher context: the card and stablecoin checks are contributors the
// composition root passes it, and the whole audit (CLI, tests, chaos verdict) runs both.
describe('ledger audit contributors', () => {
  test('the whole audit runs the card check, then the stablecoin check', () => {
    expect(LEDGER_AUDIT_CONTRIBUTORS).toEqual([cardLedgerAudit, stablecoinLedgerAudit]);
  });

  test("a contributor queries through the audit's connection, gets every account's balance, and its findings come after the ledger's", async () => {
    await h.platform();
    const result = await runLedgerAuditWith(h.orm.em.fork(), [
      async ({ execute, balances }) => {
        const [row] = await execute<{ n: string }[]>('select count(*)::text as n from ledger_accounts');
        return [{ kind: 'PROBE', subject: 'probe', detail: `${row!.n} ${balances.size}` }];
      },
    ]);
    expect(result.accounts).toBeGreaterThan(0);
    expect(result.findings.at(-1)).toEqual({ kind: 'PROBE', subject: 'probe', detail: `${result.accounts} ${result.accounts}` });
  });
});
