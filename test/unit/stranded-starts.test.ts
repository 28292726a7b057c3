import type { MikroORM } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { STRANDED_STARTS } from '../../src/contexts/stranded-starts';
import { startStranded, startStrandedOf, type StrandedScope, type StrandedStart } from '../../src/temporal/start-stranded';

// The drain needs no database or server here: each kind's find and start are the test's own.
const em = {};
const orm = { em: { fork: () => em } } as unknown as MikroORM;
const client = {} as Client;

interface Row {
  id: string;
}

function kind(name: string, rows: Row[], start: (row: Row) => Promise<void> = async () => undefined): StrandedStart<Row> & { scopes: StrandedScope[] } {
  const scopes: StrandedScope[] = [];
  return {
    name,
    scopes,
    find: async (given, scope) => {
      expect(given).toBe(em);
      scopes.push(scope);
      return rows;
    },
    idOf: (row) => row.id,
    start: (_client, row) => start(row),
  };
}

test('every context that records a row before starting its workflow registers its stranded start, once', () => {
  expect(STRANDED_STARTS.map((s) => s.name)).toEqual([
    'webhook deliveries',
    'external account verifications',
    'quote expiries',
    'cards',
    'bulk customer imports',
    'stablecoin issuances',
    'stablecoin operations',
    'invitation expiries',
    'SCA challenges',
  ]);
});

test('a kind finds what was due before the grace period, with a limit and the scope it was given', async () => {
  const cards = kind('cards', []);
  const before = Date.now();
  await startStrandedOf(orm, client, cards, { graceMs: 30_000, platformId: 'Platform:1' });
  expect(cards.scopes).toHaveLength(1);
  const [scope] = cards.scopes;
  expect(scope!.limit).toBe(100);
  expect(scope!.platformId).toBe('Platform:1');
  expect(scope!.overdue.getTime()).toBeGreaterThanOrEqual(before - 30_000);
  expect(scope!.overdue.getTime()).toBeLessThanOrEqual(Date.now() - 30_000);

  await startStrandedOf(orm, client, cards, { limit: 5 });
  expect(cards.scopes[1]!.limit).toBe(5);
  expect(cards.scopes[1]!.overdue.getTime()).toBeLessThanOrEqual(Date.now() - 60_000);
  expect(cards.scopes[1]!.platformId).toBeUndefined();
});

test('the ids started are returned; a row that fails to start is left for the next sweep and the others still start', async () => {
  const seen: string[] = [];
  const cards = kind('cards', [{ id: 'a' }, { id: 'b' }, { id: 'c' }], async (row) => {
    seen.push(row.id);
    if (row.id === 'b') throw new Error('Temporal unreachable');
  });
  expect(await startStrandedOf(orm, client, cards, {})).toEqual(['a', 'c']);
  expect(seen).toEqual(['a', 'b', 'c']);
});

test("a start refused because the work is over already is passed over, when the kind says that's what the refusal means", async () => {
  const over = new WorkflowExecutionAlreadyStartedError('done', 'b', 'webhookDelivery');
  const rows = [{ id: 'a' }, { id: 'b' }];
  const refuse = async (row: Row) => {
    if (row.id === 'b') throw over;
  };
  const quiet = { ...kind('webhook deliveries', rows, refuse), isOverAlready: (err: unknown) => err === over };
  expect(await startStrandedOf(orm, client, quiet, {})).toEqual(['a']);
  expect(await startStrandedOf(orm, client, kind('invitation expiries', rows, refuse), {})).toEqual(['a']);
});

test('one drain over the list: ids per kind, and a kind whose find fails does not stop the others', async () => {
  const broken: StrandedStart<Row> = { ...kind('quote expiries', []), find: () => Promise.reject(new Error('database down')) };
  const started = await startStranded(orm, client, [kind('cards', [{ id: 'card' }]), broken, kind('bulk customer imports', [{ id: 'job' }])], {
    taskQueue: 'q',
  });
  expect(started).toEqual({ cards: ['card'], 'quote expiries': [], 'bulk customer imports': ['job'] });
});

test('the task queue is passed to every start', async () => {
  const queues: (string | undefined)[] = [];
  const cards: StrandedStart<Row> = { ...kind('cards', [{ id: 'a' }]), start: async (_client, _row, options) => void queues.push(options.taskQueue) };
  await startStranded(orm, client, [cards], { taskQueue: 'payments-test' });
  expect(queues).toEqual(['payments-test']);
});
