import type { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { newId } from '../../../src/domain/ids';
import { AuthCredential, AuthSession } from '../../../src/contexts/wallet-auth/entities';
import { SESSION_TTL_MS } from '../../../src/contexts/wallet-auth/domain/auth-methods';
import type { Api } from '../harness';
import { newDeviceKey, type DeviceKey } from './keys';

/**
 * A customer's embedded wallet with an active session whose key the test holds, stored directly
 * (a verified credential and its session), for tests of the signed operations rather than of logins.
 */
export async function walletWithSession(orm: MikroORM, api: Api, platformId: string): Promise<{ customerId: string; walletId: string; key: DeviceKey }> {
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `w-${randomBytes(6).toString('hex')}`,
    fullName: 'Ada Lovelace',
  });
  if (created.status !== 201) throw new Error(`customer: ${created.status} ${JSON.stringify(created.body)}`);
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&type=EMBEDDED_WALLET`);
  const walletId = accounts.body.data[0]?.id as string | undefined;
  if (!walletId) throw new Error('no embedded wallet: create the platform with embeddedWalletsSupported');
  const key = newDeviceKey();
  const now = new Date();
  const em = orm.em.fork();
  const credential = em.create(AuthCredential, {
    id: newId('AuthMethod'),
    platformId,
    accountId: walletId,
    type: 'EMAIL_OTP',
    nickname: 'ada@example.com',
    email: 'ada@example.com',
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  em.create(AuthSession, {
    id: newId('Session'),
    platformId,
    accountId: walletId,
    credentialId: credential.id,
    publicKey: key.publicKey,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { customerId: created.body.id as string, walletId, key };
}
