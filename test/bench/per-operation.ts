import type { Client } from '@temporalio/client';
import type { Stack } from './stack';

/** Engine work of one execution, from recorded histories. */
export interface EngineWork {
  workflows: number;
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  events: number;
}

const none = () => undefined;

/** Engine work of one execution, from its history (children included). */
export async function engineWork(client: Client, workflowId: string): Promise<EngineWork> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const count = (attr: keyof (typeof events)[number]) => events.filter((e) => e[attr]).length;
  const own = {
    workflows: 1,
    workflowTasks: count('workflowTaskCompletedEventAttributes'),
    activityTasks: count('activityTaskScheduledEventAttributes'),
    // Local activities leave a marker; so does patched(), which is not work: count markers with a result payload.
    localActivities: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
    events: events.length,
  };
  const children = events.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId).filter((id): id is string => !!id);
  for (const child of children) {
    await client.workflow.getHandle(child).result().catch(none);
    const w = await engineWork(client, child);
    own.workflows += w.workflows;
    own.workflowTasks += w.workflowTasks;
    own.activityTasks += w.activityTasks;
    own.localActivities += w.localActivities;
    own.events += w.events;
  }
  return own;
}

/**
 * A payment's engine work, found by its transaction id (one workflow per payment) or else by its
 * quote id (a quote's workflow with the payment as its child, as before issue 20). A transaction
 * whose workflow is that child is counted from its parent, so that both shapes count whole.
 */
export async function paymentWork(client: Client, ids: { transactionId: string; quoteId: string }): Promise<EngineWork> {
  try {
    const started = (await client.workflow.getHandle(ids.transactionId).fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    const parent = started?.parentWorkflowExecution?.workflowId;
    return await engineWork(client, parent ?? ids.transactionId);
  } catch {
    return engineWork(client, ids.quoteId);
  }
}

export function averageWork(works: EngineWork[]): EngineWork {
  const avg = (k: keyof EngineWork) => works.reduce((s, w) => s + w[k], 0) / works.length;
  return {
    workflows: avg('workflows'),
    workflowTasks: avg('workflowTasks'),
    activityTasks: avg('activityTasks'),
    localActivities: avg('localActivities'),
    events: avg('events'),
  };
}

/** Database work of the API and the worker together, from their metrics listeners. */
export interface DbWork {
  statements: number;
  transactions: number;
}

/** The counters once they stop moving (the worker records webhook attempts after a receiver got them). */
async function settledDbWork(stack: Stack): Promise<DbWork> {
  let last = await stack.dbWork();
  for (;;) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await stack.dbWork();
    if (now.statements === last.statements && now.transactions === last.transactions) return now;
    last = now;
  }
}

export interface PerOperation extends EngineWork, DbWork {}

/**
 * `n` operations one after the other on a quiet stack: SQL statements and database transactions
 * per operation (the API's and the worker's counters, read before and after) and engine work
 * (each operation's workflow histories, `work`). The caller's `one` resolves once the operation is
 * complete (for a payout: its COMPLETED webhook received).
 */
export async function perOperation<T>(
  stack: Stack,
  n: number,
  one: (i: number) => Promise<T>,
  work: (result: T) => Promise<EngineWork | null>,
): Promise<PerOperation> {
  const before = await settledDbWork(stack);
  const results: T[] = [];
  for (let i = 0; i < n; i++) results.push(await one(i));
  const after = await settledDbWork(stack);
  const works: EngineWork[] = [];
  for (const result of results) {
    const w = await work(result);
    if (w) works.push(w);
  }
  const engine = works.length > 0 ? averageWork(works) : { workflows: 0, workflowTasks: 0, activityTasks: 0, localActivities: 0, events: 0 };
  return { ...engine, statements: (after.statements - before.statements) / n, transactions: (after.transactions - before.transactions) / n };
}

/** One printed line: the database's and the engine's work per operation. */
export function printPerOperation(label: string, w: PerOperation): void {
  console.log(
    `${label.padEnd(34)} SQL statements ${w.statements.toFixed(1)}   db transactions ${w.transactions.toFixed(1)}   workflows ${w.workflows.toFixed(1)}   workflow tasks ${w.workflowTasks.toFixed(1)}   activity tasks ${w.activityTasks.toFixed(1)}   local activities ${w.localActivities.toFixed(1)}   history events ${w.events.toFixed(1)}`,
  );
}
