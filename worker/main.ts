import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type LogEntry } from '@temporalio/worker';
import { createWorkerMetrics } from '../activities/metrics';
import { createHttpWebhookSender } from '../activities/webhooks/webhook-sender';
import { loadConfig } from '../src/config';
import { migrate, openOrm } from '../src/db/orm';
import { logger } from '../src/logger';
import { serveMetrics } from '../src/observability/metrics-server';
import { pruneIdempotencyRecords } from '../src/services/idempotency-retention';
import { ensureSearchAttributes } from '../src/temporal/register-search-attributes';
import { startStrandedWebhookDeliveries } from '../src/contexts/webhooks/services/webhook-sweeper';
import { startStrandedAccountVerifications } from '../src/contexts/external-accounts/services/verification-sweeper';
import { expireStrandedInvitations } from '../src/contexts/invitations/services/invitation-sweeper';
import { expireStrandedQuotes } from '../src/contexts/payments/services/quote-sweeper';
import { startStrandedCards } from '../src/contexts/cards/services/card-sweeper';
import { startStrandedBulkImports } from '../src/contexts/customers/services/bulk-import-sweeper';
import { startStrandedStablecoinWork } from '../src/contexts/stablecoins/services/stablecoin-sweeper';
import { CARD_TIMING } from '../src/contexts/cards/services/card-timing';
import { createWorker } from './worker';

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
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    deps: { orm, masterKey: config.masterKey, webhookSender: createHttpWebhookSender({ allowLoopback: config.webhookAllowLoopback }), metrics },
    ...(tracing ? { tracing: tracing.workerOptions } : {}),
  });
  logger.info({ temporalAddress: config.temporalAddress, taskQueue: worker.options.taskQueue }, 'worker started');

  // Every minute: start deliveries of events, account checks, card issuances, bulk imports, stablecoin issuances and operations, and invitation expiries whose workflow never started (see the sweepers) and
  // forget idempotency records past their retention.
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  await ensureSearchAttributes(clientConnection, config.temporalNamespace);
  const client = new Client({
    connection: clientConnection,
    namespace: config.temporalNamespace,
    ...(tracing ? { interceptors: tracing.clientInterceptors } : {}),
  });
  const sweep = setInterval(() => {
    startStrandedWebhookDeliveries(orm, client, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ eventIds: ids }, 'started stranded webhook deliveries'))
      .catch((err: unknown) => logger.warn({ err }, 'webhook sweep failed'));
    startStrandedAccountVerifications(orm, client, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ externalAccountIds: ids }, 'started stranded account verifications'))
      .catch((err: unknown) => logger.warn({ err }, 'account verification sweep failed'));
    expireStrandedQuotes(orm, client, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ quoteIds: ids }, 'expired stranded quotes'))
      .catch((err: unknown) => logger.warn({ err }, 'quote sweep failed'));
    startStrandedCards(orm, client, CARD_TIMING, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ cardIds: ids }, 'started stranded cards'))
      .catch((err: unknown) => logger.warn({ err }, 'card sweep failed'));
    startStrandedBulkImports(orm, client, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ jobIds: ids }, 'started stranded bulk imports'))
      .catch((err: unknown) => logger.warn({ err }, 'bulk import sweep failed'));
    startStrandedStablecoinWork(orm, client, { taskQueue: worker.options.taskQueue })
      .then((ids) => ids.length > 0 && logger.info({ ids }, 'started stranded stablecoin issuances and operations'))
      .catch((err: unknown) => logger.warn({ err }, 'stablecoin sweep failed'));
    expireStrandedInvitations(orm, client, { taskQueue: worker.options.taskQueue })
      .then((codes) => codes.length > 0 && logger.info({ codes }, 'expired stranded invitations'))
      .catch((err: unknown) => logger.warn({ err }, 'invitation sweep failed'));
    pruneIdempotencyRecords(orm)
      .then((n) => n > 0 && logger.info({ pruned: n }, 'pruned idempotency records'))
      .catch((err: unknown) => logger.warn({ err }, 'idempotency pruning failed'));
  }, 60_000);

  // Worker.run() handles SIGINT/SIGTERM itself: it drains in-flight tasks, then resolves.
  await worker.run();
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
