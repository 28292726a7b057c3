import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken, Platform } from '../entities';
import type { Environment } from '../entities/ApiToken';
import type { PlatformCurrencyConfig, Region } from '../entities/Platform';
import { newId } from '../../../domain/ids';
import { DomainError } from '../../../domain/errors';
import { defaultUmaDomain, isUmaDomain, OWN_DEFAULT_UMA_DOMAIN } from '../domain/uma-domains';
import { reservedUmaDomainProblems, umaDomainTaken } from './uma-domain-assignment';
import { hashClientSecret, newClientSecret } from '../../../security/secrets';

export interface NewPlatform {
  name: string;
  region?: Region;
  currencies?: string[];
  isRegulatedFinancialInstitution?: boolean;
  embeddedWalletsSupported?: boolean;
  counterpartyInformationRequired?: boolean;
  webhookEndpoint?: string | null;
  /**
   * The platform's UMA domain: a host name of its own (first come), OWN_DEFAULT_UMA_DOMAIN for its
   * default domain (invitations then work at once), or none (addresses on the default domain,
   * invitations not configured).
   */
  umaDomain?: string | null;
  /** Cards (operator settings): the live-card cap (none by default) and one live card per cardholder. */
  maxLiveCards?: number | null;
  oneCardPerCardholder?: boolean;
}

export function defaultCurrencyConfig(code: string): PlatformCurrencyConfig {
  return { currencyCode: code, minAmount: 1, maxAmount: 100_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] };
}

/**
 * Stores a new platform, nothing more: createPlatform (platform-setup) also opens its accounts
 * and signing keys.
 */
export async function insertPlatform(em: EntityManager, input: NewPlatform): Promise<Platform> {
  const now = new Date();
  const currencies = input.currencies ?? ['USD'];
  const id = newId('Platform');
  const umaDomain = input.umaDomain === OWN_DEFAULT_UMA_DOMAIN ? defaultUmaDomain(id) : (input.umaDomain ?? null);
  if (umaDomain !== null && !isUmaDomain(umaDomain))
    throw DomainError.invalidInput([{ field: 'umaDomain', constraint: 'pattern', message: 'must be a host name such as pay.example.com' }]);
  const reserved = reservedUmaDomainProblems(id, umaDomain);
  if (reserved.length > 0) throw DomainError.invalidInput(reserved);
  const platform = em.create(Platform, {
    id,
    name: input.name,
    region: input.region ?? 'US',
    isRegulatedFinancialInstitution: input.isRegulatedFinancialInstitution ?? false,
    embeddedWalletsSupported: input.embeddedWalletsSupported ?? false,
    counterpartyInformationRequired: input.counterpartyInformationRequired ?? false,
    webhookEndpoint: input.webhookEndpoint ?? null,
    umaDomain,
    supportedCurrencies: currencies.map(defaultCurrencyConfig),
    embeddedWalletConfig: null,
    feeConfigs: [],
    maxLiveCards: input.maxLiveCards ?? null,
    oneCardPerCardholder: input.oneCardPerCardholder ?? false,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw umaDomainTaken();
    throw err;
  }
  return platform;
}

/** Issues an API token; the secret is returned once and only its keyed hash is kept. */
export async function createToken(
  em: EntityManager,
  masterKey: Buffer,
  platformId: string,
  environment: Environment,
  name = 'default',
): Promise<{ tokenId: string; clientSecret: string }> {
  const clientSecret = newClientSecret();
  const now = new Date();
  const token = em.create(ApiToken, {
    id: newId('Token'),
    platformId,
    name,
    environment,
    permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    secretHash: hashClientSecret(masterKey, clientSecret),
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { tokenId: token.id, clientSecret };
}

/**
 * Revokes an API token of the platform by deleting it, as the reference's DELETE /tokens/{tokenId}
 * does; authentication reads the token on every request, so it stops working at once. False when
 * the platform has no such token.
 */
export async function revokeToken(em: EntityManager, platformId: string, tokenId: string): Promise<boolean> {
  return (await em.nativeDelete(ApiToken, { id: tokenId, platformId })) > 0;
}
