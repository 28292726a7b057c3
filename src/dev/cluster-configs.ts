import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureSearchAttributes } from '../temporal/register-search-attributes';

/**
 * The production topology's configuration files and first-start steps, shared by `npm run start:cluster`
 * (fixed ports, src/dev/cluster-ports.ts) and the proofs that run the same topology on ports of their own
 * (the cluster crash campaign, the cluster bench). Templates live in deploy/.
 */

/** Every loopback port one Temporal server (all four services in one process) and its Web UI listen on. */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
  ui: number;
}

/** The PostgreSQL server holding the `temporal` and `temporal_visibility` databases (bin/lib/temporal-schema.sh makes them). */
export interface TemporalPostgres {
  host: string;
  port: string | number;
  user: string;
  password: string;
}

/** One node of a Temporal server of several (one membership ring on the same databases), behind one shared frontend address. */
export interface TemporalNode {
  /** 1, 2, …: its configuration goes to `temporal-<index>/` under the data folder. */
  index: number;
  /** The loopback port of HAProxy in front of every node's frontend (writeTemporalLbConfig): the cluster's address. */
  sharedFrontendPort: number;
}

/** The ports start:cluster gives its server: history, matching and worker at fixed offsets from the frontend. */
export function temporalPortsFrom(frontend: number, frontendHttp: number, membership: number, metrics: number, ui: number): TemporalServerPorts {
  return {
    frontend,
    frontendHttp,
    frontendMembership: membership,
    history: frontend + 1,
    historyMembership: membership + 1,
    matching: frontend + 2,
    matchingMembership: membership + 2,
    worker: frontend + 6,
    workerMembership: membership + 6,
    metrics,
    ui,
  };
}

/** Writes `template` (in deploy/) with its @@NAME@@ fields filled in: files that may hold a password are the owner's only. */
export function renderTemplate(root: string, template: string, target: string, fields: Record<string, string | number>): void {
  let text = readFileSync(join(root, 'deploy', template), 'utf8');
  for (const [name, value] of Object.entries(fields)) text = text.replaceAll(`@@${name}@@`, String(value));
  const left = /@@[A-Z_]+@@/.exec(text);
  if (left) throw new Error(`deploy/${template}: no value for ${left[0]}`);
  mkdirSync(resolve(target, '..'), { recursive: true });
  writeFileSync(target, text, { mode: 0o600 });
}

/**
 * The Temporal server's and the Web UI's configuration under `dataDir` (temporal/, temporal-ui/): run the
 * server with `--root <temporalRoot> --config config --env cluster start`, the UI likewise with `uiRoot`.
 */
export function writeTemporalConfigs(
  root: string,
  dataDir: string,
  ports: TemporalServerPorts,
  pg: TemporalPostgres,
  node?: TemporalNode,
): { temporalRoot: string; uiRoot: string } {
  const temporalRoot = join(dataDir, node ? `temporal-${node.index}` : 'temporal');
  const dynamicConfig = join(temporalRoot, 'dynamic-config.yaml');
  mkdirSync(join(temporalRoot, 'config'), { recursive: true });
  copyFileSync(join(root, 'deploy/temporal/dynamic-config.yaml'), dynamicConfig);
  renderTemplate(root, 'temporal/server.yaml.template', join(temporalRoot, 'config/cluster.yaml'), {
    PG_HOST: pg.host,
    PG_PORT: pg.port,
    PG_USER: pg.user,
    PG_PASSWORD: pg.password,
    METRICS_PORT: ports.metrics,
    FRONTEND_PORT: ports.frontend,
    FRONTEND_HTTP_PORT: ports.frontendHttp,
    FRONTEND_MEMBERSHIP_PORT: ports.frontendMembership,
    HISTORY_PORT: ports.history,
    HISTORY_MEMBERSHIP_PORT: ports.historyMembership,
    MATCHING_PORT: ports.matching,
    MATCHING_MEMBERSHIP_PORT: ports.matchingMembership,
    WORKER_PORT: ports.worker,
    WORKER_MEMBERSHIP_PORT: ports.workerMembership,
    DYNAMIC_CONFIG: dynamicConfig,
    CLUSTER_FRONTEND_ADDRESS: `127.0.0.1:${node?.sharedFrontendPort ?? ports.frontend}`,
  });
  const uiRoot = join(dataDir, 'temporal-ui');
  renderTemplate(root, 'temporal/ui.yaml.template', join(uiRoot, 'config/cluster.yaml'), {
    FRONTEND_PORT: node?.sharedFrontendPort ?? ports.frontend,
    UI_PORT: ports.ui,
  });
  return { temporalRoot, uiRoot };
}

/** Where HAProxy's runtime API listens when its configuration is `haproxyConfig`: beside it. */
export const haproxySocketOf = (haproxyConfig: string) => join(resolve(haproxyConfig, '..'), 'haproxy.sock');

/**
 * HAProxy's configuration: `port` in front of the API replicas (servers api1, api2… of backend api_replicas), each
 * checked on /ready every second; its runtime API (admin level) on the socket `haproxySocketOf(target)`.
 */
export function writeHaproxyConfig(root: string, target: string, port: number, replicaPorts: readonly number[]): void {
  renderTemplate(root, 'haproxy.template.cfg', target, {
    STATS_SOCKET: haproxySocketOf(target),
    PORT: port,
    SERVERS: replicaPorts.map((replica, i) => `  server api${i + 1} 127.0.0.1:${replica} check`).join('\n'),
  });
}

/**
 * HAProxy in TCP mode (gRPC) in front of the Temporal nodes' frontends: `port` is the one address the workers, the
 * APIs and the Web UI use; a node that refuses connections is out at once (deploy/temporal/haproxy.template.cfg).
 */
export function writeTemporalLbConfig(root: string, target: string, port: number, frontendPorts: readonly number[]): void {
  renderTemplate(root, 'temporal/haproxy.template.cfg', target, {
    PORT: port,
    SERVERS: frontendPorts.map((frontend, i) => `  server temporal${i + 1} 127.0.0.1:${frontend} check`).join('\n'),
  });
}

/**
 * The server creates no namespace of its own: `default` is registered once (7 days of closed workflows kept),
 * then the service's search attributes. Resolves once the namespace answers on every service.
 */
export async function ensureNamespace(address: string, say: (message: string) => void): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    try {
      await connection.workflowService.registerNamespace({ namespace: 'default', workflowExecutionRetentionPeriod: msToTs('7 days') });
      say('registered namespace default');
    } catch (err) {
      if (!/already exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
    }
    // A new namespace reaches every service's cache within seconds: wait until it answers.
    for (let i = 0; ; i++) {
      try {
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        await ensureSearchAttributes(connection, 'default');
        return;
      } catch (err) {
        if (i >= 60) throw err;
        await new Promise<void>((done) => setTimeout(done, 1_000));
      }
    }
  } finally {
    await connection.close();
  }
}
