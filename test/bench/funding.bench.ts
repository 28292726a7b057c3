import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, Runtime, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { load, paced } from './load';
import { customerAccounts, funder, startStack } from './stack';
import { bankActivities } from './template/activities';
import type { moneyTransfer } from './template/workflows';

/**
 * Sandbox funding against the money-transfer template's shape, in the same run, on the same
 * Temporal dev server (SQLite), with the same client concurrency. Funding goes through the
 * real path, with the API and the worker as separate processes as `npm start` runs them:
 * HTTP → Express → starter → incomingPayment workflow → PostgreSQL ledger → webhook delivery to a
 * local receiver; its completion is the HTTP answer (the money is posted). The
 * template's completion is its workflow result. Prints completions/s, p50/p99 latency, the
 * funding/template ratio and the engine work per execution counted from recorded histories.
 * No threshold is asserted: speed is read here, never in tests.
 */

const OPS = Number(process.env.BENCH_WORKFLOWS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ACCOUNTS = 64;

const none = () => undefined;

/** Engine work of one execution, from its history (children included). */
async function engineWork(client: Client, workflowId: string): Promise<{ workflows: number; workflowTasks: number; activityTasks: number; localActivities: number; events: number }> {
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

async function averageWork(client: Client, ids: string[]) {
  const sample = ids.slice(0, 10);
  const works: Awaited<ReturnType<typeof engineWork>>[] = [];
  for (const id of sample) works.push(await engineWork(client, id));
  const avg = (k: keyof (typeof works)[number]) => works.reduce((s, w) => s + w[k], 0) / works.length;
  return { workflows: avg('workflows'), workflowTasks: avg('workflowTasks'), activityTasks: avg('activityTasks'), localActivities: avg('localActivities'), events: avg('events') };
}

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });
  const stack = await startStack('funding');
  try {
    const { client, native, receiver, call } = stack;
    const templateQueue = `bench-template-${randomUUID()}`;
    // The template's worker, in this process (its activities are in memory).
    const templateWorker = await Worker.create({
      connection: native,
      taskQueue: templateQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./template/workflows'), logger: { log: none, trace: none, debug: none, info: none, warn: none, error: none } }),
      activities: bankActivities(),
    });
    const running = templateWorker.run();
    stack.cleanup.unshift(async () => {
      templateWorker.shutdown();
      await running;
    });

    const accounts = await customerAccounts(stack, ACCOUNTS);
    const fund = funder(stack, accounts);
    const transfer = async (i: number) => {
      const referenceId = randomUUID();
      await client.workflow.execute<typeof moneyTransfer>('moneyTransfer', { taskQueue: templateQueue, workflowId: `transfer-${referenceId}`, args: [{ amount: 100, sourceAccount: `a-${i % ACCOUNTS}`, targetAccount: `b-${i % ACCOUNTS}`, referenceId }] });
      return `transfer-${referenceId}`;
    };

    console.log(`funding vs the money-transfer template: ${OPS} each, ${CONCURRENCY} in flight, one Temporal dev server (SQLite)`);
    await load('warm-up (template)', 40, CONCURRENCY, transfer);
    await load('warm-up (funding)', 40, CONCURRENCY, fund);
    const template = await load('template transfer', OPS, CONCURRENCY, transfer);
    const funding = await load('sandbox funding (HTTP)', OPS, CONCURRENCY, fund);

    // Engine work per execution. Funding workflow ids are transaction ids derived from the keys.
    const recent: string[] = [];
    for await (const wf of client.workflow.list({ query: `WorkflowType = 'incomingPayment'` })) {
      recent.push(wf.workflowId);
      if (recent.length >= 10) break;
    }
    const tw = await averageWork(client, template.ids);
    const fw = await averageWork(client, recent);
    const row = (label: string, w: typeof tw) =>
      console.log(`${label.padEnd(34)} workflows ${w.workflows.toFixed(1)}   workflow tasks ${w.workflowTasks.toFixed(1)}   activity tasks ${w.activityTasks.toFixed(1)}   local activities ${w.localActivities.toFixed(1)}   history events ${w.events.toFixed(1)}`);
    console.log('engine work per execution (average of 10, children included):');
    row('template transfer', tw);
    row('sandbox funding', fw);
    console.log(`ratio funding/template (completions per second): ${(funding.rate / template.rate).toFixed(2)}`);

    // Payouts: quote → execute → COMPLETED (ledger settled, webhook delivered), against the same
    // template; and quote creation (one workflow start behind HTTP) against a bare StartWorkflow.
    const banks: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      await call('POST', `/sandbox/internal-accounts/${accounts[i]}/fund`, { amount: 100_000_000 });
      const owner = (await call('GET', `/customers/internal-accounts?limit=100&currency=USD`)) as { data: { id: string; customerId: string }[] };
      const customerId = owner.data.find((a) => a.id === accounts[i])!.customerId;
      const bank = await call('POST', '/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Customer', countryOfResidence: 'DE' } } });
      banks.push(String(bank.id));
    }
    const quoteFor = (i: number) => call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: accounts[i % ACCOUNTS] }, destination: { destinationType: 'ACCOUNT', accountId: banks[i % ACCOUNTS] }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
    const completed = new Set<string>();
    const waiters = new Map<string, () => void>();
    const seen = setInterval(() => {
      for (const hook of receiver.received.splice(0)) {
        if (hook.body.type !== 'OUTGOING_PAYMENT.COMPLETED') continue;
        const id = String(hook.body.data.id);
        completed.add(id);
        waiters.get(id)?.();
      }
    }, 5);
    const payout = async (i: number) => {
      const quote = await quoteFor(i);
      const transactionId = String(quote.transactionId);
      const done = new Promise<void>((resolve) => (completed.has(transactionId) ? resolve() : waiters.set(transactionId, resolve)));
      await call('POST', `/quotes/${String(quote.id)}/execute`);
      await done;
      waiters.delete(transactionId);
      return String(quote.id);
    };
    const quoteOnly = async (i: number) => String((await quoteFor(i)).id);
    const bareStart = async () => {
      const referenceId = randomUUID();
      await client.workflow.start<typeof moneyTransfer>('moneyTransfer', { taskQueue: `idle-${templateQueue}`, workflowId: `start-${referenceId}`, args: [{ amount: 1, sourceAccount: 'a', targetAccount: 'b', referenceId }] });
      return `start-${referenceId}`;
    };
    await load('warm-up (payout)', 40, CONCURRENCY, payout);
    const template2 = await load('template transfer (again)', OPS, CONCURRENCY, transfer);
    const payouts = await load('payout to COMPLETED (HTTP)', OPS, CONCURRENCY, payout);
    const bare = await load('bare StartWorkflow', OPS, CONCURRENCY, bareStart);
    const quotes = await load('quote creation (HTTP)', OPS, CONCURRENCY, quoteOnly);
    clearInterval(seen);
    const pw = await averageWork(client, payouts.ids);
    row('payout (quote + payment)', pw);
    console.log(`ratio payout/template (completions per second): ${(payouts.rate / template2.rate).toFixed(2)}   (target ≥ 1.0)`);
    console.log(`ratio quote creation/bare StartWorkflow: ${(quotes.rate / bare.rate).toFixed(2)}   (target ≥ 0.8)`);
    // Latency at half the quote rate just measured, for both, offered at the same pace.
    const halfRate = quotes.rate / 2;
    const pacedOps = Math.max(100, Math.round(halfRate * 10));
    const bareAtHalf = await paced('bare StartWorkflow, paced', pacedOps, halfRate, bareStart);
    const quotesAtHalf = await paced('quote creation (HTTP), paced', pacedOps, halfRate, quoteOnly);
    console.log(`ratio quote creation p99/bare StartWorkflow p99 at ${halfRate.toFixed(1)}/s: ${(quotesAtHalf.p99 / bareAtHalf.p99).toFixed(2)}   (target ≤ 2.0)`);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
