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
 * (WALLET_SIGNATURE_INVALID). The sandbox's legacy literal is accepted there only. Returns the
 * signing session (null for the literal).
 */
export async function verifySingleShotStamp(
  em: EntityManager,
  input: { platformId: string; environment: Environment; accountId: string; payload: string | null | undefined; signature: string },
): Promise<AuthSession | null> {
  await requireWallet(em, input.platformId, input.accountId);
  if (input.signature === LEGACY_SANDBOX_SIGNATURE && input.environment === 'SANDBOX') return null;
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
  const session = await em.findOne(AuthSession, {
    platformId: input.platformId,
    accountId: input.accountId,
    publicKey: stamp.publicKey,
    revokedAt: null,
    expiresAt: { $gt: new Date() },
  });
  if (!session) throw new DomainError('WALLET_SIGNATURE_INVALID', 'The stamp key is not the key of an active session of this wallet');
  return session;
}
