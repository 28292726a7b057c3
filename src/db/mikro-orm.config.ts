import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';
import { countDbWork, type DbMetrics } from '../observability/db-metrics';
import { releaseBrokenTransactionConnections } from './broken-transaction-connections';

export interface OrmOptions {
  debug?: boolean;
  poolMax?: number;
  /** Counts the statements and transactions this ORM sends (the process's metrics). */
  dbMetrics?: DbMetrics;
}

export function ormConfig(databaseUrl: string, options: OrmOptions = {}) {
  const { dbMetrics } = options;
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    driverOptions: {
      onPoolCreated: (pool: Parameters<typeof countDbWork>[0] & Parameters<typeof releaseBrokenTransactionConnections>[0]) => {
        releaseBrokenTransactionConnections(pool);
        if (dbMetrics) countDbWork(pool, dbMetrics);
      },
    },
    // Entities are declared with explicit types; no reflection needed.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  });
}

/** The MikroORM CLI's default: `npm start`'s cluster, with the password bin/lib/postgres.sh generated for it. */
function devDatabaseUrl(): string {
  const secretFile = resolve(__dirname, '../../.data/postgres.password');
  const secret = existsSync(secretFile) ? `:${readFileSync(secretFile, 'utf8').trim()}` : '';
  return `postgresql://payments${secret}@127.0.0.1:55432/payments`;
}

export default ormConfig(process.env.DATABASE_URL ?? devDatabaseUrl());
