import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import { encrypt } from '../../../security/secrets';
import { listPage } from '../../../services/listing';
import { ProviderRefusal } from '../domain/provider';
import { operatorLinkMove, type ProviderAccountStatus, type StablecoinProvider } from '../domain/stablecoin-states';
import { StablecoinProviderAccount } from '../entities';
import { providerFailure, providerFor } from './provider-client';
import { providerAccountView } from './stablecoin-views';

export interface LinkRequest {
  provider: StablecoinProvider;
  apiClientId: string;
  apiClientSecret: string;
  providerAccountId?: string;
}

const alreadyLinked = (id: string) =>
  new DomainError('CONFLICT', `This provider account is already linked (${id}); revoke that link before linking it again`, { stablecoinProviderAccountId: id });

/**
 * Links a provider account: the provider must accept the credentials (else
 * STABLECOIN_VERIFICATION_FAILED), and the account is the one named or the only one they reach.
 * The credentials are kept sealed and never shown again. The link's id derives from the
 * Idempotency-Key, so a retry after a lost answer finds its link instead of conflicting with it.
 */
export async function linkProviderAccount(em: EntityManager, masterKey: Buffer, caller: Caller, body: LinkRequest, idempotencyKey: string) {
  const client = providerFor(caller.environment);
  const credentials = { apiClientId: body.apiClientId, apiClientSecret: body.apiClientSecret };
  let reachable: string[];
  try {
    reachable = await client.accounts(credentials);
  } catch (err) {
    if (err instanceof ProviderRefusal && err.kind === 'AUTHENTICATION')
      throw new DomainError('STABLECOIN_VERIFICATION_FAILED', `${err.message}; nothing was linked`);
    throw providerFailure(err);
  }
  let providerAccountId = body.providerAccountId;
  if (providerAccountId === undefined) {
    if (reachable.length !== 1) {
      throw DomainError.invalidInput([
        {
          field: 'providerAccountId',
          constraint: 'required',
          message: `the credentials reach ${reachable.length} provider accounts (${reachable.join(', ')}); name one`,
        },
      ]);
    }
    providerAccountId = reachable[0]!;
  } else if (!reachable.includes(providerAccountId)) {
    throw new DomainError('STABLECOIN_VERIFICATION_FAILED', 'The credentials do not reach the provider account named', {
      errors: [{ field: 'providerAccountId', constraint: 'reachable', message: `must be one of: ${reachable.join(', ')}` }],
    });
  }
  const id = derivedId('StablecoinProviderAccount', caller.platformId, 'provider-account', idempotencyKey);
  try {
    return await em.transactional(async (tx) => {
      const mine = await tx.findOne(StablecoinProviderAccount, { id });
      if (mine) return providerAccountView(mine);
      const live = await tx.findOne(StablecoinProviderAccount, {
        platformId: caller.platformId,
        environment: caller.environment,
        provider: body.provider,
        providerAccountId,
        status: { $ne: 'REVOKED' },
      });
      if (live) throw alreadyLinked(live.id);
      const now = new Date();
      const link = tx.create(StablecoinProviderAccount, {
        id,
        platformId: caller.platformId,
        environment: caller.environment,
        provider: body.provider,
        providerAccountId,
        status: 'ACTIVE',
        sealedCredentials: encrypt(masterKey, JSON.stringify(credentials)),
        lastVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return providerAccountView(link);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyLinked('linked concurrently');
    throw err;
  }
}

export async function findProviderAccount(em: EntityManager, platformId: string, id: string): Promise<StablecoinProviderAccount> {
  const link = await em.findOne(StablecoinProviderAccount, { id, platformId });
  if (!link) throw DomainError.notFound('StablecoinProviderAccount');
  return link;
}

export async function listProviderAccounts(
  em: EntityManager,
  platformId: string,
  q: { limit: number; cursor?: string; provider?: StablecoinProvider; status?: ProviderAccountStatus },
) {
  return listPage(
    em,
    StablecoinProviderAccount,
    { platformId, ...(q.provider ? { provider: q.provider } : {}), ...(q.status ? { status: q.status } : {}) },
    q,
    (rows) => rows.map(providerAccountView),
  );
}

/**
 * The link a registration uses: the one named (it must be the platform's and ACTIVE), else the
 * platform's only ACTIVE link for the provider. None is 404; several need the caller to choose.
 */
export async function chooseLink(em: EntityManager, caller: Caller, provider: StablecoinProvider, named?: string): Promise<StablecoinProviderAccount> {
  if (named) {
    const link = await findProviderAccount(em, caller.platformId, named);
    // A link of the other environment (or provider) is not one this token can use.
    if (link.environment !== caller.environment || link.provider !== provider) throw DomainError.notFound('StablecoinProviderAccount');
    return link;
  }
  const active = await em.find(
    StablecoinProviderAccount,
    { platformId: caller.platformId, environment: caller.environment, provider, status: 'ACTIVE' },
    { limit: 2, orderBy: { createdAt: 'asc' } },
  );
  if (active.length === 0)
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      `The platform has no ACTIVE ${provider} provider account link; link one with POST /stablecoin-provider-accounts`,
    );
  if (active.length > 1)
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      'Several provider account links are ACTIVE; pass stablecoinProviderAccountId to choose one',
    );
  return active[0]!;
}

/** The operator's command (src/cli/stablecoin-operator.ts): mark a link INVALID, ACTIVE again, or REVOKED for good. */
export async function setLinkStatus(em: EntityManager, id: string, next: ProviderAccountStatus) {
  return em.transactional(async (tx) => {
    const link = await tx.findOne(StablecoinProviderAccount, { id });
    if (!link) throw DomainError.notFound('StablecoinProviderAccount');
    link.status = operatorLinkMove(link.status, next);
    link.updatedAt = new Date();
    return providerAccountView(link);
  });
}
