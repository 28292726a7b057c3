import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { MetricsListen } from '../config';
import { logger } from '../logger';

/**
 * A listener of its own for Prometheus (`GET /metrics`, text format), apart from the API port so
 * that it is never public by accident, serving `registry` with the process's own metrics added
 * (CPU, memory, event-loop lag, start time: a restart shows). A port that cannot be bound is
 * logged, not fatal: the service keeps serving payments without its metrics.
 */
export function serveMetrics(registry: Registry, listen: MetricsListen): Server {
  collectDefaultMetrics({ register: registry });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        logger.error({ err }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  server.on('error', (err) => logger.error({ err, ...listen }, 'metrics listener failed'));
  server.listen(listen.port, listen.host, () => logger.info({ url: `http://${listen.host}:${listen.port}/metrics` }, 'metrics listening'));
  return server;
}
