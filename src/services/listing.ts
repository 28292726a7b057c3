import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { EntityClass } from '@mikro-orm/core';
import { decodeCursor, toPage, type Page } from '../domain/pagination';

/**
 * One page of a list in (createdAt desc, id desc) order, by keyset: stable under inserts
 * and as fast on page 1000 as on page 1.
 */
export async function listPage<E extends { id: string; createdAt: Date }, T>(
  em: EntityManager,
  entity: EntityClass<E>,
  where: FilterQuery<E>,
  query: { limit: number; cursor?: string },
  view: (rows: E[]) => Promise<T[]> | T[],
): Promise<Page<T>> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const keyset = after
    ? { $or: [{ createdAt: { $lt: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), id: { $lt: after.id } }] }
    : {};
  const [rows, totalCount] = await Promise.all([
    em.find(entity, { $and: [where, keyset] } as FilterQuery<E>, { orderBy: { createdAt: 'desc', id: 'desc' } as never, limit: query.limit + 1 }),
    em.count(entity, where),
  ]);
  const page = toPage(rows, query.limit, totalCount, (r) => r);
  return { ...page, data: await view(page.data) };
}
