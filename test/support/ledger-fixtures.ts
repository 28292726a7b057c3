import type { MikroORM } from '@mikro-orm/postgresql';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { openInternalAccount } from '../../src/contexts/ledger/services/internal-accounts';
import { ensureSystemAccount, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';

/**
 * A fresh USD platform with two extra internal accounts, `a` funded with `amount` through a real
 * ledger entry from the sandbox funding source, `b` empty. For ledger tests and benchmarks.
 */
export async function twoAccounts(orm: MikroORM, amount: bigint, name = 'ledger'): Promise<{ platformId: string; a: string; b: string }> {
  const em = orm.em.fork();
  const platform = await createPlatform(em, { name, currencies: ['USD'] });
  const a = openInternalAccount(em, { platformId: platform.id, customerId: null, currency: 'USD' });
  const b = openInternalAccount(em, { platformId: platform.id, customerId: null, currency: 'USD' });
  await em.flush();
  const source = sandboxFundingAccountId(platform.id, 'USD');
  await em.transactional(async (tx) => {
    await ensureSystemAccount(tx, platform.id, source, 'SANDBOX_FUNDING_SOURCE', 'USD');
    await postEntry(tx, { platformId: platform.id, idempotencyKey: `seed:${a.id}`, description: 'seed', lines: transfer(source, a.id, 'USD', amount) });
  });
  return { platformId: platform.id, a: a.id, b: b.id };
}
