import { migrate, openOrm } from '../db/orm';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    const applied = await migrate(orm, databaseUrl);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await orm.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
