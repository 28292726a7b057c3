import type { EntityManager } from '@mikro-orm/postgresql';
import { SignedRequest } from '../entities';

/**
 * Gives a consumed signed request back (unused again, until it expires), for an operation whose
 * effect happens outside the database after the request was consumed (a payment's approval in its
 * workflow) and failed there: the owner's signature then approved nothing, and the same signed
 * retry may try again.
 */
export async function releaseSignedRequest(em: EntityManager, requestId: string): Promise<void> {
  await em.nativeUpdate(SignedRequest, { id: requestId, consumedAt: { $ne: null } }, { consumedAt: null, signedBySessionId: null });
}
