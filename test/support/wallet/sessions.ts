import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthSession } from '../../../src/contexts/wallet-auth';
import type { Api } from '../harness';
import type { DeviceKey } from './keys';
import { otpLogin } from './login';

/**
 * A signed-in device of a wallet's owner, for tests of what a session signs (payments, contact
 * changes): a real OTP login through the API (challenge, sealed code, signed retry) with the
 * wallet's EMAIL_OTP credential (every wallet of an owner with an email starts with one), or the
 * credential named. `expiresAt` stands in for the clock: the session then ends at that time.
 */
export async function openTestSession(
  api: Api,
  em: EntityManager,
  wallet: { platformId: string; accountId: string },
  options: { credentialId?: string; expiresAt?: Date } = {},
): Promise<{ key: DeviceKey; sessionId: string; credentialId: string }> {
  const credentialId = options.credentialId ?? (await emailCredentialOf(api, wallet.accountId));
  const { session, key } = await otpLogin(api, credentialId);
  if (options.expiresAt) await em.nativeUpdate(AuthSession, { id: session.id, platformId: wallet.platformId }, { expiresAt: options.expiresAt });
  return { key, sessionId: session.id, credentialId };
}

async function emailCredentialOf(api: Api, accountId: string): Promise<string> {
  const listed = await api.get(`/auth/credentials?accountId=${encodeURIComponent(accountId)}`).expect(200);
  const credential = (listed.body.data as { id: string; type: string }[]).find((c) => c.type === 'EMAIL_OTP');
  if (!credential) throw new Error(`wallet ${accountId} has no EMAIL_OTP credential: give its owner an email`);
  return credential.id;
}
