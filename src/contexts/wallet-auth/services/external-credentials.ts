import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platforms';
import type { AuthCredential } from '../entities';
import { liveCredentials, lockCredentialSet } from './credential-set';
import { storeOauth, verifyOauthEnrolment, type OauthEnrolment } from './oauth-credentials';
import { storePasskey, verifyPasskeyEnrolment, assertPasskeyEnrolable, type PasskeyRegistration } from './passkey-credentials';
import type { RegisteredPasskey } from './passkeys';
import { runSignedOperation, type SignedCall, type SignedOutcome } from './signed-requests';
import { credentialView } from './views';
import type { WalletAuthConfig } from './wallet-auth-config';
import { requireWallet } from './wallets';

export type ExternalCredentialInput = ({ type: 'PASSKEY' } & PasskeyRegistration) | { type: 'OAUTH'; oidcToken: string };

type Enrolment = { type: 'PASSKEY'; nickname: string; passkey: RegisteredPasskey } | { type: 'OAUTH'; oauth: OauthEnrolment };

const ACTIVITY = { PASSKEY: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS', OAUTH: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS' } as const;

/**
 * Registers a PASSKEY or OAUTH credential. Its proof (the attestation, the OIDC token) is checked
 * on the call that brings it: the wallet's first credential is then stored at once (201); any
 * further one waits for a session of the wallet to sign (202 → signed retry), and the retry
 * stores what the first call verified (public data only: the passkey's id, COSE key and counter,
 * or the OIDC identity), so a token's 60 s freshness is judged when it was sent, not when signed.
 */
export async function createExternalCredential(
  em: EntityManager,
  call: SignedCall,
  input: ExternalCredentialInput,
  context: { config: WalletAuthConfig; environment: Environment },
): Promise<SignedOutcome<ReturnType<typeof credentialView>>> {
  const wallet = await requireWallet(em, call.platformId, call.accountId);
  const store = (tx: EntityManager, enrolment: Enrolment): Promise<AuthCredential> =>
    enrolment.type === 'PASSKEY' ? storePasskey(tx, wallet, enrolment.nickname, enrolment.passkey) : storeOauth(tx, wallet, enrolment.oauth);
  const isRetry = !!(call.signature?.trim() || call.requestId?.trim());
  if (!isRetry) {
    const enrolment: Enrolment =
      input.type === 'PASSKEY'
        ? { type: 'PASSKEY', nickname: input.nickname, passkey: await verifyPasskeyEnrolment(context.config, input) }
        : { type: 'OAUTH', oauth: await verifyOauthEnrolment(context.config, context.environment, input.oidcToken) };
    const first = await em.transactional(async (tx) => {
      await lockCredentialSet(tx, wallet.id);
      if ((await liveCredentials(tx, call.platformId, wallet.id)).length > 0) {
        // Refused now rather than after the owner signed: a passkey the customer cannot enroll.
        if (enrolment.type === 'PASSKEY') await assertPasskeyEnrolable(tx, wallet, enrolment.passkey.credentialId);
        return null;
      }
      return store(tx, enrolment);
    });
    if (first) return { status: 'DONE', result: credentialView(first) };
    return runSignedOperation(em, call, signedCreation(enrolment, store));
  }
  return runSignedOperation(em, call, signedCreation(undefined, store));
}

function signedCreation(enrolment: Enrolment | undefined, store: (tx: EntityManager, enrolment: Enrolment) => Promise<AuthCredential>) {
  return {
    name: 'AUTH_CREDENTIAL_CREATE',
    activityType: enrolment ? ACTIVITY[enrolment.type] : 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS',
    conflictGroup: 'CREDENTIAL_SET',
    prepare: async () => ({
      parameters:
        enrolment?.type === 'PASSKEY' ? { type: 'PASSKEY', credentialId: enrolment.passkey.credentialId } : { type: 'OAUTH', issuer: enrolment?.oauth.iss },
      data: { enrolment },
    }),
    execute: async (tx: EntityManager, { request }: { request: { accountId: string; data?: Record<string, unknown> | null } }) => {
      await lockCredentialSet(tx, request.accountId);
      return credentialView(await store(tx, request.data?.enrolment as Enrolment));
    },
  };
}
