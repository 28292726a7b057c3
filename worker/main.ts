import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/temporal/client-connection';
import { DefaultLogger, NativeConnection, Runtime, type LogEntry } from '@temporalio/worker';
import { createWorkerMetrics } from '../activities/metrics';
import { createHttpWebhookSender } from '../activities/webhooks/webhook-sender';
import { loadConfig } from '../src/config';
import { migrate, openOrm } from '../src/db/orm';
import { logger } from '../src/logger';
import { serveMetrics } from '../src/observability/metrics-server';
import { pruneIdempotencyRecords } from '../src/services/idempotency-retention';
import { ensureSearchAttributes } from '../src/temporal/register-search-attributes';
import { startStranded } from '../src/temporal/start-stranded';
import { STRANDED_STARTS } from '../src/contexts/stranded-starts';
import { workerTaskQueues } from '../src/temporal/task-queue-settings';
import { workerDeployment } from '../src/temporal/worker-deployment';
import { createWorkers } from './worker';
import { skipWorkflowPromiseStacks } from './workflow-promise-stacks';

/**
 * SDK, workflow and activity logs as pino JSON lines (activity entries carry workflowId and runId),
 * and the SDK's own metrics (task slots, poll and schedule-to-start latencies…) for Prometheus.
 */
function installRuntime(temporalMetricsAddress: string | null): void {
  const level = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  const options = {
    logger: new DefaultLogger('INFO', (entry: LogEntry) => {
      logger[level[entry.level]]({ ...entry.meta, source: 'temporal' }, entry.message);
    }),
  };
  if (temporalMetricsAddress) {
    try {
      Runtime.install({ ...options, telemetryOptions: { metrics: { prometheus: { bindAddress: temporalMetricsAddress } } } });
      return;
    } catch (err) {
      // As for the service's own listener: payments go on without the metrics.
      logger.error({ err, address: temporalMetricsAddress }, 'Temporal SDK metrics exporter failed; running without it');
    }
  }
  Runtime.install(options);
}

async function main(): Promise<void> {
  const config = loadConfig();
  installRuntime(config.temporalMetricsAddress);
  // Imported only when configured: without an OTLP endpoint no OpenTelemetry code is loaded.
  const tracing = config.tracing ? (await import('./tracing.js')).startWorkerTracing() : undefined;
  const metrics = config.workerMetrics ? createWorkerMetrics() : undefined;
  const metricsServer = config.workerMetrics && metrics ? serveMetrics(metrics.registry, config.workerMetrics) : undefined;
  const orm = await openOrm(config.databaseUrl, metrics ? { dbMetrics: metrics.db } : {});
  await migrate(orm, config.databaseUrl);
  const taskQueues = workerTaskQueues(process.env);
  const deployment = workerDeployment(process.env);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  if (!config.workflowStackTraces) skipWorkflowPromiseStacks();
  const workers = await createWorkers(
    {
      connection,
      namespace: config.temporalNamespace,
      deps: { orm, masterKey: config.masterKey, webhookSender: createHttpWebhookSender({ allowLoopback: config.webhookAllowLoopback }), metrics },
      ...(tracing ? { tracing: tracing.workerOptions } : {}),
      ...(deployment ? { deployment } : {}),
    },
    taskQueues,
  );
  logger.info(
    {
      temporalAddress: config.temporalAddress,
      taskQueues,
      deployment: deployment ?? 'unversioned',
      workflowStackTraces: config.workflowStackTraces ? 'on' : 'off',
    },
    'worker started',
  );

  // Every minute: start the workflow of recorded work whose start was lost (src/contexts/stranded-starts.ts)
  // and forget idempotency records past their retention.
  const clientConnection = await connectTemporal(config.temporalAddress);
  await ensureSearchAttributes(clientConnection, config.temporalNamespace);
  const client = new Client({
    connection: clientConnection,
    namespace: config.temporalNamespace,
    ...(tracing ? { interceptors: tracing.clientInterceptors } : {}),
  });
  const sweep = setInterval(() => {
    void startStranded(orm, client, STRANDED_STARTS, {});
    pruneIdempotencyRecords(orm)
      .then((n) => n > 0 && logger.info({ pruned: n }, 'pruned idempotency records'))
      .catch((err: unknown) => logger.warn({ err }, 'idempotency pruning failed'));
  }, 60_000);

  // Worker.run() handles SIGINT/SIGTERM itself: it drains in-flight tasks, then resolves. One worker
  // failing stops the others (the process ends, and its supervisor restarts it).
  const runs = workers.map((worker) => worker.run());
  await Promise.race(runs).catch((err: unknown) => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    throw err;
  });
  for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  await Promise.allSettled(runs);
  clearInterval(sweep);
  await clientConnection.close();
  await connection.close();
  await orm.close();
  metricsServer?.close();
  await tracing?.shutdown();
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  logger.fatal({ err }, 'worker failed');
  process.exit(1);
});
