import { bundleWorkflowCode, Runtime, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { derivedId } from '../../src/domain/ids';
import { sumOfCounter } from '../proof/stack';
import { startQuote } from '../../src/contexts/payments/starters/payment';
import { load, paced } from './load';
import { cpuDuring, perOperationCpu } from './cpu';
import { averageWork, engineWork, paymentWork, perOperation, printPerOperation } from './per-operation';
import { engineStats, printEngineStats } from './engine-stats';
import { payoutDriver } from './payouts-driver';
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
 * funding/template ratio and, from a sequential sample of each operation, the SQL statements and
 * database transactions (the services' counters) and the engine work (recorded histories) per operation.
 * No threshold is asserted: speed is read here, never in tests.
 */

const OPS = Number(process.env.BENCH_WORKFLOWS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ACCOUNTS = 64;

const none = () => undefined;

/** Operations in each sequential sample that reads the work per operation. */
const SAMPLE = 10;

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });
  const stack = await startStack('funding');
  try {
    const { client, native } = stack;
    const templateQueue = `bench-template-${randomUUID()}`;
    // The template's worker, in this process (its activities are in memory).
    const templateWorker = await Worker.create({
      connection: native,
      taskQueue: templateQueue,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: require.resolve('./template/workflows'),
        logger: { log: none, trace: none, debug: none, info: none, warn: none, error: none },
      }),
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
      await client.workflow.execute<typeof moneyTransfer>('moneyTransfer', {
        taskQueue: templateQueue,
        workflowId: `transfer-${referenceId}`,
        args: [{ amount: 100, sourceAccount: `a-${i % ACCOUNTS}`, targetAccount: `b-${i % ACCOUNTS}`, referenceId }],
      });
      return `transfer-${referenceId}`;
    };

    console.log(`funding vs the money-transfer template: ${OPS} each, ${CONCURRENCY} in flight, on ${stack.engine}`);
    await load('warm-up (template)', 40, CONCURRENCY, transfer);
    await load('warm-up (funding)', 40, CONCURRENCY, fund);
    const template = await load('template transfer', OPS, CONCURRENCY, transfer);
    const fundingBefore = engineStats(await stack.sdkMetricsText());
    const funding = await load('sandbox funding (HTTP)', OPS, CONCURRENCY, fund);
    printEngineStats("the service's workers during funding", fundingBefore, engineStats(await stack.sdkMetricsText()), OPS);

    // Work per operation, from a sequential sample. Funding workflow ids are transaction ids derived from the keys.
    const tw = averageWork(await Promise.all(template.ids.slice(0, SAMPLE).map((id) => engineWork(client, id))));
    const fw = await perOperation(stack, SAMPLE, fund, (key) => engineWork(client, derivedId('Transaction', stack.platformId, 'sandbox-fund', key)));
    console.log(`work per operation (sequential sample of ${SAMPLE}; children included):`);
    printPerOperation('template transfer', { ...tw, statements: 0, transactions: 0 });
    printPerOperation('sandbox funding', fw);
    console.log(`ratio funding/template (completions per second): ${(funding.rate / template.rate).toFixed(2)}`);

    // Payouts: quote → execute → COMPLETED (ledger settled, webhook delivered), against the same
    // template; and quote creation (one workflow start behind HTTP) against a bare StartWorkflow.
    const { payout, payoutIds, quoteIds, quoteOnly, stop: stopReading } = await payoutDriver(stack, accounts);
    const bareStart = async () => {
      const referenceId = randomUUID();
      await client.workflow.start<typeof moneyTransfer>('moneyTransfer', {
        taskQueue: `idle-${templateQueue}`,
        workflowId: `start-${referenceId}`,
        args: [{ amount: 1, sourceAccount: 'a', targetAccount: 'b', referenceId }],
      });
      return `start-${referenceId}`;
    };
    await load('warm-up (payout)', 40, CONCURRENCY, payout);
    // Where the cores go: CPU per operation of each part of the stack, template transfer against payout.
    const stackProcesses = stack.pids();
    const { result: template2, cpuMs: templateCpu } = await cpuDuring(stackProcesses, () => load('template transfer (again)', OPS, CONCURRENCY, transfer));
    const payoutsBefore = engineStats(await stack.sdkMetricsText());
    const { result: payouts, cpuMs: payoutCpu } = await cpuDuring(stackProcesses, () => load('payout to COMPLETED (HTTP)', OPS, CONCURRENCY, payout));
    printEngineStats("the service's workers during payouts", payoutsBefore, engineStats(await stack.sdkMetricsText()), OPS);
    console.log(`CPU, template transfer:  ${perOperationCpu(templateCpu, OPS)}`);
    console.log(`CPU, payout to COMPLETED: ${perOperationCpu(payoutCpu, OPS)}`);
    const bare = await load('bare StartWorkflow', OPS, CONCURRENCY, bareStart);
    const quotesBefore = engineStats(await stack.sdkMetricsText());
    const quotes = await load('quote creation (HTTP)', OPS, CONCURRENCY, quoteOnly);
    printEngineStats("the service's workers during quote creation", quotesBefore, engineStats(await stack.sdkMetricsText()), OPS);
    console.log(`work per operation (sequential sample of ${SAMPLE}; a payout from its quote request to its COMPLETED webhook delivered):`);
    printPerOperation('payout (quote + payment)', await perOperation(stack, SAMPLE, payoutIds, (ids) => paymentWork(client, ids)));
    // A quote's workflow waits for its execution: its engine work so far.
    printPerOperation('quote creation', await perOperation(stack, SAMPLE, quoteIds, (ids) => paymentWork(client, ids)));
    stopReading();
    console.log(`ratio payout/template (completions per second): ${(payouts.rate / template2.rate).toFixed(2)}   (target ≥ 1.0)`);
    console.log(`ratio quote creation/bare StartWorkflow: ${(quotes.rate / bare.rate).toFixed(2)}   (target ≥ 0.8)`);
    // Latency at half the quote rate just measured, for both, offered at the same pace.
    const halfRate = quotes.rate / 2;
    const pacedOps = Math.max(100, Math.round(halfRate * 10));
    const bareAtHalf = await paced('bare StartWorkflow, paced', pacedOps, halfRate, bareStart);
    // What the API process went through meanwhile: its event-loop delay (reset at every scrape) and garbage collection.
    const gcSeconds = async () => sumOfCounter(await stack.metricsText('api'), 'nodejs_gc_duration_seconds_sum');
    const gcBefore = await gcSeconds();
    const quotesAtHalf = await paced('quote creation (HTTP), paced', pacedOps, halfRate, quoteOnly);
    const apiText = await stack.metricsText('api');
    console.log(
      `  API process during it: event-loop delay p99 ${(sumOfCounter(apiText, 'nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(0)} ms, max ${(sumOfCounter(apiText, 'nodejs_eventloop_lag_max_seconds') * 1000).toFixed(0)} ms; garbage collection ${((sumOfCounter(apiText, 'nodejs_gc_duration_seconds_sum') - gcBefore) * 1000).toFixed(0)} ms`,
    );
    console.log(
      `ratio quote creation p99/bare StartWorkflow p99 at ${halfRate.toFixed(1)}/s: ${(quotesAtHalf.p99 / bareAtHalf.p99).toFixed(2)}   (target ≤ 2.0)`,
    );
    // Where the rest of the quote's tail is: the same start as the API makes (the quote workflow with
    // its search attributes, on the queue the service's worker polls, which runs its first task),
    // without HTTP, authentication or SQL.
    const quoteWorkflowStart = async () => {
      const quoteId = `Quote:bench-${randomUUID()}`;
      await startQuote(
        client,
        {
          quoteId,
          transactionId: `Transaction:bench-${randomUUID()}`,
          platformId: stack.platformId,
          customerId: null,
          environment: 'SANDBOX',
          lifetimeSeconds: 86_400,
        },
        { taskQueue: stack.taskQueue },
      );
      return quoteId;
    };
    // The same start on a queue nobody polls: the search attributes' cost without the first task's.
    const idleQuoteWorkflowStart = async () => {
      const quoteId = `Quote:bench-${randomUUID()}`;
      await startQuote(
        client,
        {
          quoteId,
          transactionId: `Transaction:bench-${randomUUID()}`,
          platformId: stack.platformId,
          customerId: null,
          environment: 'SANDBOX',
          lifetimeSeconds: 86_400,
        },
        { taskQueue: `idle-${templateQueue}` },
      );
      return quoteId;
    };
    const idleStartsAtHalf = await paced('quote workflow start, idle queue', pacedOps, halfRate, idleQuoteWorkflowStart);
    const startsAtHalf = await paced('quote workflow start only, paced', pacedOps, halfRate, quoteWorkflowStart);
    console.log(
      `ratio quote workflow start on an idle queue p99/bare StartWorkflow p99: ${(idleStartsAtHalf.p99 / bareAtHalf.p99).toFixed(2)}   (the search attributes' share)`,
    );
    console.log(
      `ratio quote workflow start p99/bare StartWorkflow p99 at ${halfRate.toFixed(1)}/s: ${(startsAtHalf.p99 / bareAtHalf.p99).toFixed(2)}   (what the engine alone costs the quote's tail)`,
    );
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
