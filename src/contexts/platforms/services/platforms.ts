import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken, Platform } from '../entities';
import type { Environment } from '../entities/ApiToken';
import type { PlatformCurrencyConfig, Region } from '../entities/Platform';
import { newId } from '../../../domain/ids';
import { hashClientSecret, newClientSecret } from '../../../security/secrets';
import { provisionPlatformAccounts } from '../../ledger/services/provisioning';
import { ensureSigningKeys } from './signing-keys';

export interface NewPlatform {
  name: string;
  region?: Region;
  currencies?: string[];
  isRegulatedFinancialInstitution?: boolean;
  embeddedWalletsSupported?: boolean;
  counterpartyInformationRequired?: boolean;
  webhookEndpoint?: string | null;
  /** Cards (operator settings): the live-card cap (none by default) and one live card per cardholder. */
  maxLiveCards?: number | null;
  oneCardPerCardholder?: boolean;
}

export function defaultCurrencyConfig(code: string): PlatformCurrencyConfig {
  return { currencyCode: code, minAmount: 1, maxAmount: 100_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] };
}

/**
 * Creates a platform with its own internal accounts (one per currency) and, given the master key,
 * its own webhook-signing keys (else they are made on first use).
 */
export async function createPlatform(em: EntityManager, input: NewPlatform, options: { masterKey?: Buffer } = {}): Promise<Platform> {
  const now = new Date();
  const currencies = input.currencies ?? ['USD'];
  const platform = em.create(Platform, {
    id: newId('Platform'),
    name: input.name,
    region: input.region ?? 'US',
    isRegulatedFinancialInstitution: input.isRegulatedFinancialInstitution ?? false,
    embeddedWalletsSupported: input.embeddedWalletsSupported ?? false,
    counterpartyInformationRequired: input.counterpartyInformationRequired ?? false,
    webhookEndpoint: input.webhookEndpoint ?? null,
    umaDomain: null,
    supportedCurrencies: currencies.map(defaultCurrencyConfig),
    embeddedWalletConfig: null,
    feeConfigs: [],
    maxLiveCards: input.maxLiveCards ?? null,
    oneCardPerCardholder: input.oneCardPerCardholder ?? false,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  await provisionPlatformAccounts(em, platform);
  if (options.masterKey) await ensureSigningKeys(em, options.masterKey, platform.id);
  return platform;
}

/** Issues an API token; the secret is returned once and only its keyed hash is kept. */
export async function createToken(em: EntityManager, masterKey: Buffer, platformId: string, environment: Environment, name = 'default'): Promise<{ tokenId: string; clientSecret: string }> {
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
