import type { EntityManager } from '@mikro-orm/postgresql';
import { openOrm } from '../db/orm';
import { DomainError } from '../domain/errors';
import {
  GRID_OPERATIONS_STATUSES,
  PROVIDER_ACCOUNT_STATUSES,
  type GridOperationsStatus,
  type ProviderAccountStatus,
} from '../contexts/stablecoins/domain/stablecoin-states';
import { setLinkStatus } from '../contexts/stablecoins/services/provider-accounts';
import { setGridOperationsStatus } from '../contexts/stablecoins/services/stablecoins';

const USAGE = `usage:
  npm run stablecoins:operator -- grid <Stablecoin:id> <${GRID_OPERATIONS_STATUSES.filter((s) => s !== 'PENDING_APPROVAL').join('|')}>
  npm run stablecoins:operator -- link <StablecoinProviderAccount:id> <${PROVIDER_ACCOUNT_STATUSES.join('|')}>`;

/**
 * The operator's side of stablecoins: the grid-operations states a platform cannot request
 * (approve a request → ENABLING → ENABLED, decline, disable, enable again; spec §3), and a
 * provider account link's status (INVALID when the provider stopped accepting it, ACTIVE again,
 * REVOKED for good). Prints the changed resource as the API shows it; a move the rules refuse
 * exits 1 with the reason.
 */
export async function operatorCommand(em: EntityManager, args: string[]): Promise<unknown> {
  const [what, id, status] = args;
  if (what === 'grid' && id && (GRID_OPERATIONS_STATUSES as readonly string[]).includes(status ?? ''))
    return setGridOperationsStatus(em, id, status as GridOperationsStatus);
  if (what === 'link' && id && (PROVIDER_ACCOUNT_STATUSES as readonly string[]).includes(status ?? ''))
    return setLinkStatus(em, id, status as ProviderAccountStatus);
  throw new Error(USAGE);
}

async function main(databaseUrl: string, args: string[]): Promise<unknown> {
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    return await operatorCommand(orm.em.fork(), args);
  } finally {
    await orm.close();
  }
}

if (require.main === module) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('DATABASE_URL is not set\n');
    process.exit(2);
  }
  main(databaseUrl, process.argv.slice(2))
    .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof DomainError ? `${err.code}: ${err.reason}` : err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
