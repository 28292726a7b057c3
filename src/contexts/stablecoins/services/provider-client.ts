import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, type FieldError } from '../../../domain/errors';
import { logger } from '../../../logger';
import type { Environment } from '../../platforms';
import { decrypt } from '../../../security/secrets';
import { ProviderRefusal, type ProviderCredentials, type StablecoinProviderClient } from '../domain/provider';
import { sandboxProvider } from '../domain/sandbox-provider';
import { assertLinkUsable } from '../domain/stablecoin-states';
import { StablecoinProviderAccount } from '../entities';

/**
 * The provider a token's environment talks to. Sandbox tokens get the simulated Brale; no
 * production connection ships with this installation (501, as for cards).
 */
export function providerFor(environment: Environment): StablecoinProviderClient {
  if (environment === 'SANDBOX') return sandboxProvider;
  throw new DomainError('NOT_IMPLEMENTED', 'No stablecoin provider is connected to this installation; stablecoins are available with sandbox tokens');
}

/** A failed provider call as the API answers it: a refusal is the provider's (400), anything else means it was out of reach (503). */
export function providerFailure(err: unknown, notFound?: FieldError): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof ProviderRefusal) {
    if (err.kind === 'NOT_FOUND') return new DomainError('STABLECOIN_VERIFICATION_FAILED', err.message, notFound ? { errors: [notFound] } : undefined);
    if (err.kind === 'AUTHENTICATION') return new DomainError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', `${err.message}; the link is now INVALID`);
    return new DomainError('STABLECOIN_PROVIDER_ERROR', `The stablecoin provider refused the request: ${err.message}`);
  }
  logger.error({ err }, 'stablecoin provider unreachable');
  return new DomainError('SERVICE_UNAVAILABLE', 'The stablecoin provider is temporarily unavailable; try again shortly');
}

/** A DomainError thrown from an activity is final; one that only says "not now" must be retried. */
export function retryable(err: unknown): unknown {
  return err instanceof DomainError ? new Error(`${err.code}: ${err.reason}`) : err;
}

export interface UsableLink {
  link: StablecoinProviderAccount;
  credentials: ProviderCredentials;
  client: StablecoinProviderClient;
}

/**
 * An ACTIVE link with its credentials unsealed, ready to call the provider with (`anyStatus`:
 * also an INVALID or REVOKED one, to learn how an order placed through it ended).
 */
export async function usableLink(em: EntityManager, masterKey: Buffer, linkId: string, options: { anyStatus?: boolean } = {}): Promise<UsableLink> {
  const link = await em.findOneOrFail(StablecoinProviderAccount, { id: linkId }, { populate: ['sealedCredentials'] });
  if (!options.anyStatus) assertLinkUsable(link.status);
  return { link, credentials: JSON.parse(decrypt(masterKey, link.sealedCredentials)) as ProviderCredentials, client: providerFor(link.environment) };
}

/**
 * Calls the provider on a stored link. When the provider no longer accepts the link's credentials
 * the link becomes INVALID (in its own transaction, so the refusal that follows cannot undo it).
 */
export async function onLink<T>(em: EntityManager, usable: UsableLink, call: (u: UsableLink) => Promise<T>, notFound?: FieldError): Promise<T> {
  try {
    return await call(usable);
  } catch (err) {
    if (err instanceof ProviderRefusal && err.kind === 'AUTHENTICATION') {
      await em.fork().nativeUpdate(StablecoinProviderAccount, { id: usable.link.id, status: 'ACTIVE' }, { status: 'INVALID', updatedAt: new Date() });
    }
    throw providerFailure(err, notFound);
  }
}
