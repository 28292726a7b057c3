import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { DomainError } from '../domain/errors';
import { logger } from '../logger';

/** A holder that died is taken over after this. */
const LEASE_MS = 30_000;
/** How long a caller waits for its turn before it is answered OPERATION_IN_PROGRESS. */
const WAIT_MS = 30_000;

/** This process's callers of each name, queued: they wait here instead of polling the database. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `work` while holding the lease `name`: one holder at a time per name, across every process
 * sharing the database. Callers of one process queue in memory; across processes the lease is a
 * row claimed with one statement and polled for. A caller that waits longer than WAIT_MS gets
 * 409 OPERATION_IN_PROGRESS.
 */
export async function withLease<T>(orm: MikroORM, name: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  const previous = queues.get(name) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  // The next caller waits for the previous one too, even if this one gives up early.
  const tail = Promise.all([previous, mine]).then(() => undefined);
  queues.set(name, tail);
  try {
    await waitUntil(previous, deadline);
    const holder = randomUUID();
    const connection = orm.em.getConnection();
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const claimed = await connection.execute<{ holder: string }[]>(
        `insert into leases (name, holder, expires_at) values (?, ?, now() + ? * interval '1 millisecond')
         on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at where leases.expires_at < now()
         returning holder`,
        [name, holder, LEASE_MS],
      );
      if (claimed.length === 1) break;
      if (Date.now() + pause > deadline) throw inProgress();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    try {
      return await work();
    } finally {
      // Should the release fail, the lease expires on its own.
      await connection.execute('delete from leases where name = ? and holder = ?', [name, holder]).catch((err: unknown) => logger.warn({ err, name }, 'could not release a lease'));
    }
  } finally {
    done();
    if (queues.get(name) === tail) queues.delete(name);
  }
}

async function waitUntil(turn: Promise<void>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(inProgress()), Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([turn, late]);
  } finally {
    clearTimeout(timer);
  }
}

function inProgress(): DomainError {
  return new DomainError('OPERATION_IN_PROGRESS', 'Another request on this resource is still being processed; retry shortly');
}
