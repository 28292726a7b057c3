import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import type { Environment } from '../../platforms';
import { LEGACY_SANDBOX_SIGNATURE, parseStamp, stampSignsPayload } from '../domain/stamp';
import { AuthSession } from '../entities';
import { requireWallet } from './wallets';

/**
 * A single-shot stamp: a signature over a payload the resource itself carries (a quote's
 * payloadToSign), sent without a Request-Id because no 202 came first (reference inventory §7.8).
 * Checked as the signed retry is: well-formed (WALLET_SIGNATURE_MALFORMED), a P-256 signature of
 * the exact payload by the stamp's key, and that key the key of an active session of this wallet
 * (WALLET_SIGNATURE_INVALID). The sandbox's legacy literal is accepted there only, and only while
 * the wallet has an active session, which then counts as the signer. Returns the signing session.
 */
export async function verifySingleShotStamp(
  em: EntityManager,
  input: { platformId: string; environment: Environment; accountId: string; payload: string | null | undefined; signature: string },
): Promise<AuthSession> {
  await requireWallet(em, input.platformId, input.accountId);
  const active = { platformId: input.platformId, accountId: input.accountId, revokedAt: null, expiresAt: { $gt: new Date() } };
  if (input.signature === LEGACY_SANDBOX_SIGNATURE && input.environment === 'SANDBOX') {
    // The literal stands for a stamp by an active session: a wallet without one has nobody to sign for it.
    const session = await em.findOne(AuthSession, active, { orderBy: { createdAt: 'desc' } });
    if (!session) {
      throw new DomainError(
        'WALLET_SIGNATURE_INVALID',
        'sandbox-valid-signature stands for a stamp by an active session of this wallet, and the wallet has none: log in first',
      );
    }
    return session;
  }
  const stamp = parseStamp(input.signature);
  if (!stamp) {
    throw new DomainError(
      'WALLET_SIGNATURE_MALFORMED',
      'Svc-Wallet-Signature is not a stamp: base64url of {"publicKey": compressed P-256 hex, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": DER hex}',
    );
  }
  if (!input.payload || !stampSignsPayload(stamp, input.payload)) {
    throw new DomainError('WALLET_SIGNATURE_INVALID', 'The stamp is not a signature of the payloadToSign by its public key');
  }
  const session = await em.findOne(AuthSession, { ...active, publicKey: stamp.publicKey });
  if (!session) throw new DomainError('WALLET_SIGNATURE_INVALID', 'The stamp key is not the key of an active session of this wallet');
  return session;
}
