import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { openOrm } from '../../src/db/orm';

/** The ledger audit's findings on the payments database `databaseUrl` points at (none: every posting balances). */
export async function ledgerFindings(databaseUrl: string): Promise<unknown[]> {
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    return (await runLedgerAudit(orm.em.fork())).findings;
  } finally {
    await orm.close();
  }
}
