import { LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import type { Permission } from '../domain/permissions';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { Page } from '../../../domain/pagination';
import { hashClientSecret, newClientSecret } from '../../../security/secrets';
import { listPage } from '../../../services/listing';
import { assertMayGrant, assertNotLastToken, clientIdOf } from '../domain/tokens';
import { ApiToken, Platform, type Environment } from '../entities';

/** A token as the API shows it: never its secret, nor the hash of it. */
export function tokenView(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    permissions: token.permissions,
    clientId: clientIdOf(token.id),
    environment: token.environment,
    createdAt: token.createdAt.toISOString(),
    updatedAt: token.updatedAt.toISOString(),
  };
}

export interface TokenIssuer {
  platformId: string;
  environment: Environment;
  permissions: readonly Permission[];
}

/**
 * POST /tokens: a token of the caller's platform and environment (a sandbox token never mints a
 * production one), with at most the caller's permissions. The secret is in this answer only.
 */
export async function issueToken(em: EntityManager, masterKey: Buffer, issuer: TokenIssuer, input: { name: string; permissions: Permission[] }) {
  assertMayGrant(issuer.permissions, input.permissions);
  const clientSecret = newClientSecret();
  const now = new Date();
  const token = em.create(ApiToken, {
    id: newId('Token'),
    platformId: issuer.platformId,
    name: input.name,
    environment: issuer.environment,
    permissions: [...new Set(input.permissions)],
    secretHash: hashClientSecret(masterKey, clientSecret),
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { ...tokenView(token), clientSecret };
}

export async function getToken(em: EntityManager, platformId: string, tokenId: string) {
  const token = await em.findOne(ApiToken, { id: tokenId, platformId });
  if (!token) throw DomainError.notFound('Token');
  return tokenView(token);
}

export interface TokenListFilter {
  limit: number;
  cursor?: string;
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/** The platform's tokens, newest first; date bounds are inclusive. */
export async function listTokens(em: EntityManager, platformId: string, q: TokenListFilter): Promise<Page<ReturnType<typeof tokenView>>> {
  const range = (after?: string, before?: string) =>
    after || before ? { ...(after ? { $gte: new Date(after) } : {}), ...(before ? { $lte: new Date(before) } : {}) } : undefined;
  const created = range(q.createdAfter, q.createdBefore);
  const updated = range(q.updatedAfter, q.updatedBefore);
  const where: FilterQuery<ApiToken> = {
    platformId,
    ...(q.name !== undefined ? { name: q.name } : {}),
    ...(created ? { createdAt: created } : {}),
    ...(updated ? { updatedAt: updated } : {}),
  };
  return listPage(em, ApiToken, where, q, (rows) => rows.map(tokenView));
}

/**
 * DELETE /tokens/{id}: the row goes, and authentication reads the row on every request, so the
 * very next request with it is 401. The platform row is locked first, so two tokens deleting each other at once
 * cannot leave the platform with none.
 */
export async function deleteToken(em: EntityManager, platformId: string, tokenId: string): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.findOneOrFail(Platform, { id: platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const token = await tx.findOne(ApiToken, { id: tokenId, platformId });
    if (!token) throw DomainError.notFound('Token');
    assertNotLastToken(await tx.count(ApiToken, { platformId }));
    await tx.nativeDelete(ApiToken, { id: tokenId, platformId });
  });
}
