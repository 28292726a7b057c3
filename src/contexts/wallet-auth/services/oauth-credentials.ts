import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { Environment } from '../../platforms';
import type { InternalAccount } from '../../ledger';
import { oidcNonceFor, type OidcIdentity } from '../domain/oidc-claims';
import { AuthCredential } from '../entities';
import { checkOidcToken } from './oidc-tokens';
import { openSealedSession, type SealedSessionView } from './sealed-sessions';
import type { WalletAuthConfig } from './wallet-auth-config';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A registration token's identity and nickname (its email claim, else its subject), after every rule of spec §5.5. */
export async function verifyOauthEnrolment(config: WalletAuthConfig, environment: Environment, oidcToken: string): Promise<OauthEnrolment> {
  const { identity, email } = await checkOidcToken(config, oidcToken, { environment, nowSeconds: nowSeconds() });
  return { ...identity, nickname: (email ?? identity.sub).slice(0, 255) };
}

export type OauthEnrolment = OidcIdentity & { nickname: string };

/** Stores an OAUTH credential's identity iss+aud+sub on the wallet, once per wallet (400 on a second registration of it). */
export async function storeOauth(tx: EntityManager, wallet: InternalAccount, enrolment: OauthEnrolment): Promise<AuthCredential> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`oauth:${wallet.id}`]);
  const same = {
    accountId: wallet.id,
    type: 'OAUTH' as const,
    oauthIssuer: enrolment.iss,
    oauthAudience: enrolment.aud,
    oauthSubject: enrolment.sub,
    revokedAt: null,
  };
  if (await tx.count(AuthCredential, same)) {
    throw DomainError.invalidInput([{ field: 'oidcToken', constraint: 'unique', message: 'This OIDC identity is already a credential of the wallet' }]);
  }
  const now = new Date();
  const credential = tx.create(AuthCredential, {
    id: newId('AuthMethod'),
    platformId: wallet.platformId,
    accountId: wallet.id,
    type: 'OAUTH',
    nickname: enrolment.nickname,
    oauthIssuer: enrolment.iss,
    oauthAudience: enrolment.aud,
    oauthSubject: enrolment.sub,
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await tx.flush();
  return credential;
}

/**
 * `POST /auth/credentials/{id}/verify` of an OAUTH credential: a fresh token of the same
 * identity whose nonce is the SHA-256 of the exact clientPublicKey sent (so a token minted for
 * one device key opens no session for another), then a session sealed to that key.
 */
export async function verifyOauth(
  em: EntityManager,
  config: WalletAuthConfig,
  environment: Environment,
  credential: AuthCredential,
  input: { oidcToken: string; clientPublicKey: string },
): Promise<SealedSessionView> {
  if (!credential.oauthIssuer || !credential.oauthAudience || !credential.oauthSubject) throw DomainError.internal('The OAUTH credential has no identity');
  await checkOidcToken(config, input.oidcToken, {
    environment,
    nowSeconds: nowSeconds(),
    identity: { iss: credential.oauthIssuer, aud: credential.oauthAudience, sub: credential.oauthSubject },
    nonce: oidcNonceFor(input.clientPublicKey),
  });
  return em.transactional(async (tx) => {
    const live = await tx.count(AuthCredential, { id: credential.id, revokedAt: null });
    if (!live) throw DomainError.unauthorized('The credential was revoked');
    return openSealedSession(tx, credential, input.clientPublicKey);
  });
}
