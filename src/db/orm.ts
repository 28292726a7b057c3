import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { ormConfig, type OrmOptions } from './mikro-orm.config';

export type Orm = MikroORM;

export async function openOrm(databaseUrl: string, options: Omit<OrmOptions, 'debug'> = {}): Promise<MikroORM> {
  return MikroORM.init(ormConfig(databaseUrl, options));
}

const MIGRATION_LOCK = 727_001;

/**
 * Applies pending migrations. Safe on every start and from several processes at once:
 * a session-level advisory lock, held on a dedicated connection, serialises the starters.
 */
export async function migrate(orm: MikroORM, databaseUrl: string): Promise<string[]> {
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } finally {
    await lock.end();
  }
}
