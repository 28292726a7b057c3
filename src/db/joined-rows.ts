import { wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

type EntityClass<T> = new (...args: never[]) => T;

/** The stored columns of an entity (formulas and virtual properties excepted). */
function storedColumns(em: EntityManager, entity: EntityClass<object>): string[] {
  return em
    .getMetadata()
    .get(entity)
    .props.filter((p) => p.persist !== false && !p.formula && p.kind === 'scalar')
    .flatMap((p) => p.fieldNames);
}

/**
 * A select list for one table of a join, its columns prefixed with the table's alias (`t__status`),
 * so that one statement can read several entities whose columns share names.
 */
export function aliasedColumns(em: EntityManager, entity: EntityClass<object>, alias: string): string {
  return storedColumns(em, entity)
    .map((column) => `"${alias}"."${column}" as "${alias}__${column}"`)
    .join(', ');
}

/**
 * The entity read by `aliasedColumns(…, alias)` in a row, merged into the unit of work as if the
 * ORM had read it (a later find by id is answered from memory, a change is flushed as usual);
 * null when a left join found none.
 */
export function mapAliased<T extends object>(em: EntityManager, entity: EntityClass<T>, row: Record<string, unknown>, alias: string): T | null {
  const prefix = `${alias}__`;
  const own = Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );
  const [pk] = em.getMetadata().get(entity).primaryKeys;
  const pkColumn = em.getMetadata().get(entity).properties[pk!]!.fieldNames[0]!;
  if (own[pkColumn] === null || own[pkColumn] === undefined) return null;
  return em.map(entity, own as never);
}

/** The entity this unit of work holds with every stored property loaded (not a reference, not a partial read), if any. */
export function heldWhole<T extends object>(em: EntityManager, entity: EntityClass<T>, id: string): T | null {
  const held = em.getUnitOfWork().getById<T>(entity as never, id as never);
  if (!held || !wrap(held).isInitialized()) return null;
  const loaded = wrap(held, true).__loadedProperties;
  const whole = em
    .getMetadata()
    .get(entity)
    .props.filter((p) => p.persist !== false && !p.formula && p.kind === 'scalar')
    .every((p) => loaded.has(p.name));
  return whole ? held : null;
}

/**
 * An entity by id: the one this unit of work holds already (read earlier in the request, e.g. by a
 * joined read) when `belongs` accepts it, else the database's answer to `where`.
 */
export async function heldOrFind<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  id: string,
  where: Parameters<EntityManager['findOne']>[1],
  belongs: (held: T) => boolean,
): Promise<T | null> {
  const held = heldWhole(em, entity, id);
  if (held) return belongs(held) ? held : null;
  return (await em.findOne(entity as never, where as never)) as T | null;
}

/**
 * Several entities read in ONE statement: `tables` names each entity by its alias in
 * `fromAndWhere` (the statement's `from … where …` part, with any locking clause). Each entity
 * read is merged into the unit of work; an alias a left join found nothing for is null. Undefined
 * when the statement found no row.
 */
export async function readJoined<T extends Record<string, EntityClass<object>>>(
  em: EntityManager,
  tables: T,
  fromAndWhere: string,
  params: unknown[],
): Promise<{ [A in keyof T]: InstanceType<T[A]> | null } | undefined> {
  const aliases = Object.keys(tables);
  const [row] = await em
    .getConnection()
    .execute<Record<string, unknown>[]>(
      `select ${aliases.map((alias) => aliasedColumns(em, tables[alias]!, alias)).join(', ')} ${fromAndWhere}`,
      params,
      'all',
      em.getTransactionContext(),
    );
  if (!row) return undefined;
  return Object.fromEntries(aliases.map((alias) => [alias, mapAliased(em, tables[alias]!, row, alias)])) as { [A in keyof T]: InstanceType<T[A]> | null };
}
