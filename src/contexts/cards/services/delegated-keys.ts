import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { p256 } from '@noble/curves/nist.js';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { encrypt } from '../../../security/secrets';
import { InternalAccount } from '../../ledger';
import { DelegatedKey } from '../entities';
import { canActivate, canRevoke } from '../domain/delegated-keys';
import { findCard } from './cards';

export interface DelegatedKeyRequest {
  cardId: string;
  internalAccountId: string;
  nickname: string;
}

const activeKeyExists = () => new DomainError('CONFLICT', 'The card funding source already has an ACTIVE delegated key: revoke it first');

export function delegatedKeyView(key: DelegatedKey) {
  return {
    id: key.id,
    cardId: key.cardId,
    fundingSourceId: key.fundingSourceId,
    accountId: key.accountId,
    publicKey: key.publicKey,
    nickname: key.nickname,
    status: key.status,
    createdAt: key.createdAt.toISOString(),
    updatedAt: key.updatedAt.toISOString(),
  };
}

/**
 * The card and wallet a delegated key is asked for: the platform's card (404), funded by the
 * named internal account (400, field internalAccountId), which is an embedded wallet
 * (409 WALLET_NOT_PROVISIONED), with no ACTIVE key yet (409 CONFLICT).
 */
export async function delegatedKeyTarget(em: EntityManager, platformId: string, request: DelegatedKeyRequest): Promise<{ wallet: InternalAccount }> {
  const card = await findCard(em, platformId, request.cardId);
  if (!card.fundingSources.includes(request.internalAccountId)) {
    throw DomainError.invalidInput([{ field: 'internalAccountId', constraint: 'fundingSource', message: 'Not one of the card’s funding sources' }]);
  }
  const wallet = await em.findOne(InternalAccount, { id: request.internalAccountId, platformId });
  if (wallet?.type !== 'EMBEDDED_WALLET')
    throw new DomainError('WALLET_NOT_PROVISIONED', 'The funding source is not an embedded wallet: only wallets sign with delegated keys');
  if (await em.count(DelegatedKey, { cardId: card.id, fundingSourceId: wallet.id, status: 'ACTIVE' })) throw activeKeyExists();
  return { wallet };
}

/** Second leg: a fresh P-256 key pair, the private half sealed under the master key at once, PENDING. */
export async function createPendingDelegatedKey(em: EntityManager, masterKey: Buffer, platformId: string, request: DelegatedKeyRequest): Promise<DelegatedKey> {
  const privateKey = p256.utils.randomSecretKey();
  const now = new Date();
  const key = em.create(DelegatedKey, {
    id: newId('DelegatedKey'),
    platformId,
    cardId: request.cardId,
    fundingSourceId: request.internalAccountId,
    accountId: request.internalAccountId,
    publicKey: Buffer.from(p256.getPublicKey(privateKey, true)).toString('hex'),
    sealedPrivateKey: encrypt(masterKey, Buffer.from(privateKey).toString('hex')),
    nickname: request.nickname,
    status: 'PENDING',
    createdAt: now,
    updatedAt: now,
  });
  privateKey.fill(0);
  await em.flush();
  return key;
}

/** Third leg: the PENDING key becomes ACTIVE, unless another became ACTIVE meanwhile (409; the partial unique index decides a race). */
export async function activateDelegatedKey(em: EntityManager, platformId: string, id: string): Promise<DelegatedKey> {
  const key = await em.findOne(DelegatedKey, { id, platformId });
  if (!key) throw DomainError.notFound('DelegatedKey');
  if (!canActivate(key.status)) throw new DomainError('CONFLICT', `The delegated key is ${key.status}, not PENDING`);
  key.status = 'ACTIVE';
  key.updatedAt = new Date();
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw activeKeyExists();
    throw error;
  }
  return key;
}

export async function findDelegatedKey(em: EntityManager, platformId: string, id: string): Promise<DelegatedKey> {
  const key = await em.findOne(DelegatedKey, { id, platformId });
  if (!key) throw DomainError.notFound('DelegatedKey');
  return key;
}

/** Bounded list (no paging, as the reference has it), oldest first. */
export async function listDelegatedKeys(
  em: EntityManager,
  platformId: string,
  query: { accountId?: string; fundingSourceId?: string },
): Promise<DelegatedKey[]> {
  return em.find(
    DelegatedKey,
    { platformId, ...(query.accountId ? { accountId: query.accountId } : {}), ...(query.fundingSourceId ? { fundingSourceId: query.fundingSourceId } : {}) },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
}

/** DELETE: ACTIVE → REVOKED; any other state is 400 (the reference's "revoking non-active"). */
export async function revokeDelegatedKey(em: EntityManager, platformId: string, id: string): Promise<void> {
  const updated = await em.nativeUpdate(DelegatedKey, { id, platformId, status: 'ACTIVE' }, { status: 'REVOKED', updatedAt: new Date() });
  if (updated === 1) return;
  const key = await findDelegatedKey(em, platformId, id);
  if (!canRevoke(key.status)) throw new DomainError('INVALID_INPUT', `The delegated key is ${key.status}: only an ACTIVE key is revoked`);
}
