import { openOrm } from '../db/orm';
import { runLedgerAudit } from '../contexts/ledger-audit';

/** Audits the whole ledger; exits 1 on any break so it can gate deploys and cron alerts. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    const { findings, entries, accounts } = await runLedgerAudit(orm.em.fork());
    for (const f of findings) process.stdout.write(`${f.kind} ${f.subject}: ${f.detail}\n`);
    process.stdout.write(`ledger audit: ${entries} entries, ${accounts} accounts, ${findings.length} findings\n`);
    process.exitCode = findings.length === 0 ? 0 : 1;
  } finally {
    await orm.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`ledger audit failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
