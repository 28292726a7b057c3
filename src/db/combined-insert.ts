import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

type EntityClass<T> = new (...args: never[]) => T;

/** One new row: its entity and its data, by property name (as `em.create` takes them). */
export interface NewRow<T extends object = object> {
  entity: EntityClass<T>;
  data: EntityData<T>;
}

/**
 * Inserts rows of different tables in ONE statement (each but the last in a data-modifying CTE;
 * the ORM's flush would send one insert per table inside a transaction of its own), and leaves
 * them in the unit of work as written. The statement is atomic: all rows or none. Values go
 * through each property's type as the ORM's own insert would convert them (JSON, bigint).
 */
export async function insertTogether(em: EntityManager, rows: NewRow[]): Promise<void> {
  const platform = em.getPlatform();
  const inserts = rows.map(({ entity, data }) => {
    const meta = em.getMetadata().get(entity);
    const props = meta.props.filter((p) => p.persist !== false && !p.formula && p.kind === 'scalar');
    const values = props.map((p) => {
      const value = (data as Record<string, unknown>)[p.name] ?? null;
      return value !== null && p.customType ? p.customType.convertToDatabaseValue(value, platform, { mode: 'query' }) : value;
    });
    return {
      sql: `insert into "${meta.tableName}" (${props.map((p) => `"${p.fieldNames[0]!}"`).join(', ')}) values (${props.map(() => '?').join(', ')})`,
      values,
    };
  });
  const last = inserts.pop()!;
  const sql = inserts.length > 0 ? `with ${inserts.map((insert, i) => `row${i} as (${insert.sql})`).join(', ')} ${last.sql}` : last.sql;
  await em
    .getConnection()
    .execute(sql, [...inserts.flatMap((insert) => insert.values), ...last.values], 'run', em.isInTransaction() ? em.getTransactionContext() : undefined);
  for (const { entity, data } of rows) em.create(entity, data as never, { managed: true });
}
