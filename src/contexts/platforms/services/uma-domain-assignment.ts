import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform as PlatformEntity, type Platform } from '../entities';
import { DomainError, type FieldError } from '../../../domain/errors';
import { defaultUmaDomain, isReservedUmaDomain, isUmaDomain, sameUmaDomain, umaDomainOf } from '../domain/uma-domains';

/** A well-formed domain under the service's default root that is not the platform's own default. */
export function reservedUmaDomainProblems(platformId: string, domain: unknown): FieldError[] {
  if (!isUmaDomain(domain) || !isReservedUmaDomain(domain, platformId)) return [];
  return [{ field: 'umaDomain', constraint: 'reserved', message: "is reserved for the service's default domains; use a domain of your own" }];
}

/** Whether any customer of the platform (deleted ones included: their addresses stay taken) has an address on the domain. */
// Read by SQL rather than through the customers context's entity: customers depend on platforms, not back.
async function customersOnDomain(em: EntityManager, platformId: string, domain: string): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<{ n: string }[]>(
      `select count(*)::text as n from customers where platform_id = ? and lower(split_part(uma_address, '@', 2)) = ?`,
      [platformId, domain.toLowerCase()],
      'all',
      em.getTransactionContext(),
    );
  return Number(row!.n);
}

/** The unique index on lower(uma_domain) decides who holds a domain; its refusal names no one. */
export function umaDomainTaken(): DomainError {
  return new DomainError('UMA_DOMAIN_TAKEN', 'That UMA domain is already taken');
}

/**
 * Sets the platform's UMA domain, inside the caller's transaction (flushed here, so that the
 * database's first-come rule answers now). The platform's default domain is its own for good, so
 * customers on it keep their addresses when the platform takes a domain of its own; a domain of
 * its own can be left only while no customer's address is on it, since once left another
 * platform may take it.
 */
export async function setUmaDomain(em: EntityManager, platform: Platform, domain: string): Promise<void> {
  const problems = reservedUmaDomainProblems(platform.id, domain);
  if (problems.length > 0) throw DomainError.invalidInput(problems);
  // Locked before counting: a customer being written on the current domain (it holds a share
  // lock, lockedUmaDomainOf) is counted, and one that starts now sees the new domain.
  const [row] = await em
    .getConnection()
    .execute<{ uma_domain: string | null }[]>(
      'select uma_domain from platforms where id = ? for no key update',
      [platform.id],
      'all',
      em.getTransactionContext(),
    );
  const current = row?.uma_domain ?? null;
  if (sameUmaDomain(current, domain)) {
    platform.umaDomain = domain;
    return;
  }
  if (current && !sameUmaDomain(current, defaultUmaDomain(platform.id)) && (await customersOnDomain(em, platform.id, current)) > 0) {
    throw new DomainError('UMA_DOMAIN_IN_USE', 'Customers of this platform have UMA addresses on its current domain; it cannot be changed while they do', {
      umaDomain: current,
    });
  }
  platform.umaDomain = domain;
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw umaDomainTaken();
    throw err;
  }
}

/** Gives a platform that has no UMA domain its default one (the sandbox platform of an earlier `npm start`). */
export async function adoptDefaultUmaDomain(em: EntityManager, platformId: string): Promise<void> {
  await em.nativeUpdate(PlatformEntity, { id: platformId, umaDomain: null }, { umaDomain: defaultUmaDomain(platformId), updatedAt: new Date() });
}

/**
 * The platform's domain (its default while it has none) as committed, read under a share lock
 * held to the end of the caller's transaction: a customer's address is judged against the domain
 * a concurrent change (setUmaDomain) leaves or sets, never a stale one.
 */
export async function lockedUmaDomainOf(em: EntityManager, platformId: string): Promise<string> {
  const [row] = await em
    .getConnection()
    .execute<{ uma_domain: string | null }[]>('select uma_domain from platforms where id = ? for share', [platformId], 'all', em.getTransactionContext());
  return umaDomainOf({ id: platformId, umaDomain: row?.uma_domain ?? null });
}
