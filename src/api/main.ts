import { Client } from '@temporalio/client';
import { connectTemporal } from '../temporal/client-connection';
import { loadConfig } from '../config';
import { migrate, openOrm } from '../db/orm';
import { logger } from '../logger';
import { serveMetrics } from '../observability/metrics-server';
import { ensureSearchAttributes } from '../temporal/register-search-attributes';
import { createApp } from './app';
import { loadWalletAuthConfig } from '../contexts/wallet-auth/services/wallet-auth-config';
import { createApiMetrics } from './metrics';
import type { DashboardOptions } from './context';
import { DEFAULT_SESSION_POLICY } from '../contexts/dashboard';

/** DASHBOARD_IDLE_MINUTES (30) and DASHBOARD_ABSOLUTE_HOURS (12) bound its sessions; TEMPORAL_UI_URL is linked to. */
function dashboardOptions(env: NodeJS.ProcessEnv, temporalNamespace: string): DashboardOptions {
  const positive = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value;
  };
  return {
    session: {
      idleTimeoutMs: positive('DASHBOARD_IDLE_MINUTES', DEFAULT_SESSION_POLICY.idleTimeoutMs / 60_000) * 60_000,
      absoluteTimeoutMs: positive('DASHBOARD_ABSOLUTE_HOURS', DEFAULT_SESSION_POLICY.absoluteTimeoutMs / 3_600_000) * 3_600_000,
    },
    temporalUiUrl: env.TEMPORAL_UI_URL || null,
    temporalNamespace,
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  // Imported only when configured: without an OTLP endpoint no OpenTelemetry code is loaded.
  const tracing = config.tracing ? (await import('./tracing.js')).startApiTracing() : undefined;
  const metrics = config.apiMetrics ? createApiMetrics() : undefined;
  const orm = await openOrm(config.databaseUrl, metrics ? { dbMetrics: metrics.db } : {});
  await migrate(orm, config.databaseUrl);
  const connection = await connectTemporal(config.temporalAddress);
  await ensureSearchAttributes(connection, config.temporalNamespace);
  const temporal = new Client({ connection, namespace: config.temporalNamespace, ...(tracing ? { interceptors: tracing.clientInterceptors } : {}) });
  const metricsServer = config.apiMetrics && metrics ? serveMetrics(metrics.registry, config.apiMetrics) : undefined;
  const app = createApp({
    orm,
    temporal,
    config,
    metrics,
    walletAuth: loadWalletAuthConfig(process.env),
    dashboard: dashboardOptions(process.env, config.temporalNamespace),
    ...(tracing ? { requestSpans: tracing.requestSpans } : {}),
  });
  const server = app.listen(config.port, config.host, (err?: Error) => {
    // Express 5 hands a listen error (port taken) to this callback instead of throwing: without this
    // check the process would stay up, serving nothing.
    if (err) {
      logger.fatal({ err, host: config.host, port: config.port }, 'API cannot listen');
      process.exit(1);
    }
    logger.info(
      {
        host: config.host,
        port: config.port,
        baseUrl: config.publicBaseUrl,
        reference: `${config.publicBaseUrl}/reference`,
        dashboard: `${new URL(config.publicBaseUrl).origin}/dashboard`,
      },
      'API listening',
    );
  });

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'API stopping');
    metricsServer?.close();
    server.close(() => {
      void (async () => {
        await connection.close();
        await orm.close();
        await tracing?.shutdown();
        process.exit(0);
      })();
    });
    // Keep-alive connections would hold close() open; end them after a grace period.
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  logger.fatal({ err }, 'API failed to start');
  process.exit(1);
});
