import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import { listPage } from '../../../services/listing';
import { findOverdue, type StrandedScope } from '../../../temporal/start-stranded';
import { ProviderRefusal } from '../domain/provider';
import {
  assertLinkUsable,
  assertProvisioned,
  ISSUANCE_MOVES,
  ONLY_PROVIDER,
  operatorGridMove,
  requestGridEnablement,
  type GridOperationsStatus,
  type IssuanceStatus,
  type StablecoinNetwork,
  type StablecoinProvider,
} from '../domain/stablecoin-states';
import { Stablecoin } from '../entities';
import { chooseLink } from './provider-accounts';
import { onLink, providerFor, retryable, usableLink } from './provider-client';
import { stablecoinView } from './stablecoin-views';

export interface RegisterRequest {
  providerTokenIdentifier: string;
  networkTokenIdentifier: string;
  network: StablecoinNetwork;
  stablecoinProviderAccountId?: string;
}

const ALIVE = { issuanceStatus: { $nin: ['REJECTED', 'FAILED'] as IssuanceStatus[] } };

/** The first registration alive that already holds one of the token's identifiers or its symbol, as the refusal to answer. */
async function takenBy(
  em: EntityManager,
  caller: Caller,
  token: { providerTokenIdentifier: string; networkTokenIdentifier: string; symbol: string },
): Promise<DomainError | undefined> {
  const scope = { platformId: caller.platformId, environment: caller.environment, ...ALIVE };
  const sameToken = await em.findOne(Stablecoin, {
    ...scope,
    $or: [{ providerTokenIdentifier: token.providerTokenIdentifier }, { networkTokenIdentifier: token.networkTokenIdentifier }],
  });
  if (sameToken)
    return new DomainError('STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS', `The token is already registered as ${sameToken.id}`, { stablecoinId: sameToken.id });
  const sameSymbol = await em.findOne(Stablecoin, { ...scope, symbol: token.symbol });
  if (sameSymbol)
    return new DomainError('STABLECOIN_SYMBOL_ALREADY_EXISTS', `The symbol ${token.symbol} is already used by ${sameSymbol.id}`, {
      stablecoinId: sameSymbol.id,
    });
  return undefined;
}

/**
 * Registers a token the provider created for the platform: the provider must know it (its name,
 * symbol and decimals come from there) and, when it reports the token's network identifier, the
 * one given must match. The stablecoin starts PENDING_REVIEW and NOT_ENABLED; its issuance
 * workflow follows the provider's review. Its id derives from the Idempotency-Key.
 */
export async function registerStablecoin(
  em: EntityManager,
  masterKey: Buffer,
  caller: Caller,
  body: RegisterRequest,
  idempotencyKey: string,
): Promise<Stablecoin> {
  const id = derivedId('Stablecoin', caller.platformId, 'stablecoin', idempotencyKey);
  const mine = await em.findOne(Stablecoin, { id });
  if (mine) return mine;
  providerFor(caller.environment);
  const provider = ONLY_PROVIDER;
  const chosen = await chooseLink(em, caller, provider, body.stablecoinProviderAccountId);
  assertLinkUsable(chosen.status);
  const usable = await usableLink(em, masterKey, chosen.id);
  const token = await onLink(em, usable, (u) => u.client.token(u.credentials, u.link.providerAccountId, body.providerTokenIdentifier), {
    field: 'providerTokenIdentifier',
    constraint: 'knownToProvider',
    message: 'the provider account has no token with this value type',
  });
  if (token.networkTokenIdentifier !== undefined && token.networkTokenIdentifier !== body.networkTokenIdentifier) {
    throw new DomainError('STABLECOIN_VERIFICATION_FAILED', "The network token identifier is not the provider's for this token", {
      errors: [{ field: 'networkTokenIdentifier', constraint: 'matchesProvider', message: `the provider reports ${token.networkTokenIdentifier}` }],
    });
  }
  const identity = { providerTokenIdentifier: body.providerTokenIdentifier, networkTokenIdentifier: body.networkTokenIdentifier, symbol: token.symbol };
  try {
    return await em.transactional(async (tx) => {
      const again = await tx.findOne(Stablecoin, { id });
      if (again) return again;
      const refusal = await takenBy(tx, caller, identity);
      if (refusal) throw refusal;
      const now = new Date();
      return tx.create(Stablecoin, {
        id,
        platformId: caller.platformId,
        environment: caller.environment,
        providerAccountLinkId: chosen.id,
        provider,
        ...identity,
        network: body.network,
        name: token.name,
        baseCurrency: token.baseCurrency,
        decimals: token.decimals,
        issuanceStatus: 'PENDING_REVIEW',
        gridOperationsStatus: 'NOT_ENABLED',
        currency: null,
        createdAt: now,
        updatedAt: now,
      });
    });
  } catch (err) {
    // A concurrent registration of the same token or symbol won the unique index.
    if (err instanceof UniqueConstraintViolationException) throw (await takenBy(em.fork(), caller, identity)) ?? err;
    throw err;
  }
}

export async function findStablecoin(em: EntityManager, platformId: string, id: string): Promise<Stablecoin> {
  const coin = await em.findOne(Stablecoin, { id, platformId });
  if (!coin) throw DomainError.notFound('Stablecoin');
  return coin;
}

export async function listStablecoins(
  em: EntityManager,
  platformId: string,
  q: { limit: number; cursor?: string; issuanceStatus?: IssuanceStatus; svcOperationsStatus?: GridOperationsStatus; provider?: StablecoinProvider },
) {
  const where = {
    platformId,
    ...(q.issuanceStatus ? { issuanceStatus: q.issuanceStatus } : {}),
    ...(q.svcOperationsStatus ? { gridOperationsStatus: q.svcOperationsStatus } : {}),
    ...(q.provider ? { provider: q.provider } : {}),
  };
  return listPage(em, Stablecoin, where, q, (rows) => rows.map(stablecoinView));
}

/** The platform asks for grid operations (spec §3); the coin must be PROVISIONED. */
export async function requestEnablement(em: EntityManager, platformId: string, id: string) {
  return em.transactional(async (tx) => {
    const coin = await tx.findOne(Stablecoin, { id, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!coin) throw DomainError.notFound('Stablecoin');
    assertProvisioned(coin.issuanceStatus);
    const { next, changed } = requestGridEnablement(coin.gridOperationsStatus);
    if (changed) {
      coin.gridOperationsStatus = next;
      coin.updatedAt = new Date();
    }
    return stablecoinView(coin);
  });
}

/** The operator's move of grid operations (src/cli/stablecoin-operator.ts); ENABLED gives the coin its currency code. */
export async function setGridOperationsStatus(em: EntityManager, id: string, next: GridOperationsStatus) {
  return em.transactional(async (tx) => {
    const coin = await tx.findOne(Stablecoin, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!coin) throw DomainError.notFound('Stablecoin');
    coin.gridOperationsStatus = operatorGridMove(coin.gridOperationsStatus, next);
    if (next === 'ENABLED') coin.currency = coin.symbol;
    if (next === 'NOT_ENABLED') coin.currency = null;
    coin.updatedAt = new Date();
    return stablecoinView(coin);
  });
}

/**
 * One step of the issuance workflow: ask the provider how its review (from PENDING_REVIEW) or its
 * provisioning (from PROVISIONING) ended, and record it. A step already taken is not asked again;
 * a provider that refuses to answer fails the issuance, one out of reach is asked again (the
 * activity retries).
 */
export async function advanceIssuance(em: EntityManager, masterKey: Buffer, id: string): Promise<IssuanceStatus> {
  const coin = await em.findOneOrFail(Stablecoin, { id });
  const from = coin.issuanceStatus;
  if (ISSUANCE_MOVES[from].length === 0) return from;
  let next: IssuanceStatus;
  try {
    const usable = await usableLink(em, masterKey, coin.providerAccountLinkId);
    const answer = await onLink(em, usable, (u) =>
      from === 'PENDING_REVIEW'
        ? u.client.reviewIssuance(u.credentials, u.link.providerAccountId, coin.providerTokenIdentifier)
        : u.client.provisionIssuance(u.credentials, u.link.providerAccountId, coin.providerTokenIdentifier),
    );
    next = answer === 'APPROVED' ? 'PROVISIONING' : answer === 'REJECTED' ? 'REJECTED' : answer;
  } catch (err) {
    // The provider's own refusal ends the issuance; a revoked link can never ask again (FAILED).
    // A provider out of reach, or a link INVALID until the operator or the platform restores it,
    // only delays it: the step is retried.
    const refused =
      err instanceof ProviderRefusal ||
      (err instanceof DomainError && (err.code === 'STABLECOIN_PROVIDER_ERROR' || err.code === 'STABLECOIN_VERIFICATION_FAILED'));
    const revoked = err instanceof DomainError && err.code === 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED';
    if (!refused && !revoked) throw retryable(err);
    next = revoked || from === 'PROVISIONING' ? 'FAILED' : 'REJECTED';
  }
  await em.nativeUpdate(Stablecoin, { id, issuanceStatus: from }, { issuanceStatus: next, updatedAt: new Date() });
  return (await em.fork().findOneOrFail(Stablecoin, { id })).issuanceStatus;
}

/** Issuance of a coin still under way (for the sweep that restarts lost issuance workflows). */
export async function issuancesUnderWay(em: EntityManager, scope: StrandedScope): Promise<Stablecoin[]> {
  return findOverdue(em, Stablecoin, { issuanceStatus: { $in: ['PENDING_REVIEW', 'PROVISIONING'] } }, scope, { field: 'createdAt' });
}
