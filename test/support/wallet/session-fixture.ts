import type { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import type { Api } from '../harness';
import type { DeviceKey } from './keys';
import { openTestSession } from './sessions';

/**
 * A customer's embedded wallet with an active session whose key the test holds, signed in as an
 * app does (the owner's email gives the wallet its EMAIL_OTP credential; an OTP login opens the
 * session), for tests of the signed operations rather than of logins.
 */
export async function walletWithSession(orm: MikroORM, api: Api, platformId: string): Promise<{ customerId: string; walletId: string; key: DeviceKey }> {
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `w-${randomBytes(6).toString('hex')}`,
    fullName: 'Ada Lovelace',
    email: `ada-${randomBytes(4).toString('hex')}@example.com`,
  });
  if (created.status !== 201) throw new Error(`customer: ${created.status} ${JSON.stringify(created.body)}`);
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&type=EMBEDDED_WALLET`);
  const walletId = accounts.body.data[0]?.id as string | undefined;
  if (!walletId) throw new Error('no embedded wallet: create the platform with embeddedWalletsSupported');
  const { key } = await openTestSession(api, orm.em.fork(), { platformId, accountId: walletId });
  return { customerId: created.body.id as string, walletId, key };
}
