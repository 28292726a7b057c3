import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';

export function ormConfig(databaseUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Entities are declared with explicit types; no reflection needed.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  });
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgresql://payments@127.0.0.1:55432/payments');
