import type { EntityManager, EntityName, MikroORM, ObjectQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../logger';

/** Where a kind looks for stranded rows. */
export interface StrandedScope {
  /** Now minus the grace period: work due before this whose workflow never started is stranded (a normal start may still be on its way after it). */
  overdue: Date;
  /** The most rows one sweep starts, oldest first. */
  limit: number;
  /** Only this platform's rows (tests share one database with other test files' workers). */
  platformId?: string;
}

/**
 * One kind of work that is recorded in the database first and whose workflow is started after the
 * commit: if the process dies in between, nothing would move the row on. The owning context
 * declares how to find such rows and how to start their workflow (through the workflow's one
 * starter, so a running workflow is joined, never doubled); `startStranded` does the rest.
 */
export interface StrandedStart<Row> {
  /** What it starts, for the logs and the drain's result; unique in the list. */
  readonly name: string;
  find(em: EntityManager, scope: StrandedScope): Promise<Row[]>;
  /** The id logged and returned for a started row (the workflow's business id). */
  idOf(row: Row): string;
  /** Starts (or joins) the row's workflow with the args that finish what was recorded. */
  start(client: Client, row: Row, options: { taskQueue?: string }): Promise<void>;
  /** A refusal of `start` meaning the work is over already: the row is passed over without a warning. */
  isOverAlready?(err: unknown): boolean;
}

export interface StrandedOptions {
  /** How long after a row is due its start is left to the normal path (default a minute). */
  graceMs?: number;
  limit?: number;
  taskQueue?: string;
  platformId?: string;
}

/**
 * Starts the workflow of one kind's stranded rows and returns their ids. A row that fails to start
 * is logged and left for the next sweep; every start is idempotent, so sweeping anywhere, any
 * number of times, is safe.
 */
export async function startStrandedOf<Row>(orm: MikroORM, client: Client, kind: StrandedStart<Row>, options: StrandedOptions): Promise<string[]> {
  const scope: StrandedScope = {
    overdue: new Date(Date.now() - (options.graceMs ?? 60_000)),
    limit: options.limit ?? 100,
    ...(options.platformId ? { platformId: options.platformId } : {}),
  };
  const started: string[] = [];
  for (const row of await kind.find(orm.em.fork(), scope)) {
    const id = kind.idOf(row);
    try {
      await kind.start(client, row, { taskQueue: options.taskQueue });
      started.push(id);
    } catch (err) {
      if (kind.isOverAlready?.(err)) continue;
      logger.warn({ err, kind: kind.name, id }, 'could not start a stranded workflow');
    }
  }
  return started;
}

/**
 * The worker's minute sweep: every kind in the list, side by side, each logging what it started. A
 * kind that fails (its database read) is logged and counts as having started nothing; the others
 * go on. Returns the ids started, by kind name.
 */
export async function startStranded(
  orm: MikroORM,
  client: Client,
  kinds: readonly StrandedStart<unknown>[],
  options: StrandedOptions,
): Promise<Record<string, string[]>> {
  const outcomes = await Promise.all(
    kinds.map(async (kind) => {
      try {
        const ids = await startStrandedOf(orm, client, kind, options);
        if (ids.length > 0) logger.info({ kind: kind.name, ids }, 'started stranded workflows');
        return [kind.name, ids] as const;
      } catch (err) {
        logger.warn({ err, kind: kind.name }, 'stranded sweep failed');
        return [kind.name, []] as const;
      }
    }),
  );
  return Object.fromEntries(outcomes);
}

/** The scope's platform as a find filter: every kind honours it, none ignores it. */
export const ofScopedPlatform = (scope: StrandedScope): { platformId?: string } => (scope.platformId ? { platformId: scope.platformId } : {});

/**
 * The usual find: rows in the state `where` describes whose `due` moment is before the scope's
 * cutoff (later by `afterSeconds` when the work itself takes that long), oldest first, in the scope.
 */
export function findOverdue<T extends { platformId: string }>(
  em: EntityManager,
  entity: EntityName<T>,
  where: ObjectQuery<T>,
  scope: StrandedScope,
  due: { field: keyof T & string; afterSeconds?: number },
): Promise<T[]> {
  const before = new Date(scope.overdue.getTime() - (due.afterSeconds ?? 0) * 1000);
  return em.find(entity, { ...where, [due.field]: { $lt: before }, ...ofScopedPlatform(scope) } as ObjectQuery<T>, {
    orderBy: { [due.field]: 'asc' } as QueryOrderMap<T>,
    limit: scope.limit,
  });
}
