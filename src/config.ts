import { parseMasterKey } from './security/secrets';

export const API_VERSION = '2025-10-13';

export interface Config {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** Interface the API listens on: loopback unless HOST says otherwise. */
  host: string;
  port: number;
  /** Path prefix in front of the version segment, e.g. `/v1` → `/v1/2025-10-13`. */
  apiPrefix: string;
  publicBaseUrl: string;
  masterKey: Buffer;
  logLevel: string;
  limits: AbuseLimits;
  /** Where the API serves Prometheus metrics (null: not served). */
  apiMetrics: MetricsListen | null;
  /** Where the worker serves its own Prometheus counters (null: not served). */
  workerMetrics: MetricsListen | null;
  /** `host:port` of the Temporal SDK's own Prometheus exporter in the worker (null: off). */
  temporalMetricsAddress: string | null;
  /** Traces are exported over OTLP/HTTP only when an endpoint is configured (the standard OTEL_* variables). */
  tracing: boolean;
  /**
   * WEBHOOK_ALLOW_LOOPBACK=1: sandbox webhook endpoints may be loopback receivers (local development;
   * `npm start` sets it). Production endpoints and every other non-public address stay refused.
   */
  webhookAllowLoopback: boolean;
  /** TEMPORAL_CALL_TIMEOUT_MS: how long one API request may wait on Temporal before answering 503. */
  temporalCallTimeoutMs: number;
  /**
   * WORKFLOW_STACK_TRACES=1: the worker keeps the SDK's stack trace of every workflow promise, for the stack trace
   * query (Temporal UI's "Stack Trace" tab); unset or 0 (the default) saves its CPU (worker/workflow-promise-stacks.ts).
   */
  workflowStackTraces: boolean;
}

/** Per API process (in memory): several API processes each allow this much (docs/operations.md: limits). */
export interface AbuseLimits {
  /** Sustained requests per second per API token (the token bucket's refill rate). */
  requestsPerSecond: number;
  /** Requests a token may send at once above the sustained rate (the bucket's size). */
  requestBurst: number;
  /** Failed authentications from one client address (an IPv6 /64) before its wrong credentials are refused with 429. */
  authFailuresBeforeLockout: number;
  /** The first lockout; each further failure doubles it, up to the maximum. */
  authLockoutSeconds: number;
  authLockoutMaxSeconds: number;
}

/** Generous enough that neither the test suite nor `npm run bench` comes near them. */
export const DEFAULT_ABUSE_LIMITS: AbuseLimits = {
  requestsPerSecond: 200,
  requestBurst: 400,
  authFailuresBeforeLockout: 10,
  authLockoutSeconds: 1,
  authLockoutMaxSeconds: 900,
};

const LIMIT_VARIABLES: Record<keyof AbuseLimits, string> = {
  requestsPerSecond: 'RATE_LIMIT_PER_SECOND',
  requestBurst: 'RATE_LIMIT_BURST',
  authFailuresBeforeLockout: 'AUTH_FAILURES_BEFORE_LOCKOUT',
  authLockoutSeconds: 'AUTH_LOCKOUT_SECONDS',
  authLockoutMaxSeconds: 'AUTH_LOCKOUT_MAX_SECONDS',
};

export function loadAbuseLimits(env: NodeJS.ProcessEnv): AbuseLimits {
  const limits = { ...DEFAULT_ABUSE_LIMITS };
  for (const [key, name] of Object.entries(LIMIT_VARIABLES) as [keyof AbuseLimits, string][]) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(text)}`);
    limits[key] = value;
  }
  return limits;
}

export interface MetricsListen {
  host: string;
  port: number;
}

/** `off` switches a listener off; anything else must be a TCP port. */
function metricsListen(env: NodeJS.ProcessEnv, name: string, defaultPort: number): MetricsListen | null {
  const value = env[name] ?? String(defaultPort);
  if (value === 'off') return null;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${name} must be a TCP port or "off", not ${JSON.stringify(value)}`);
  // Localhost by default: metrics name routes and volumes, which are nobody else's business.
  return { host: env.METRICS_HOST ?? '127.0.0.1', port };
}

function required(env: NodeJS.ProcessEnv, name: string, hint: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: ${hint}`);
  return value;
}

/**
 * How long one request may wait on Temporal, all its calls together (TEMPORAL_CALL_TIMEOUT_MS).
 * Below a partner's usual 30 s client time-out, so the partner hears 503 and retries (through the
 * load balancer, perhaps to a replica that can reach Temporal) instead of its own time-out; above
 * what any route legitimately waits (an execution's update, a worker restarting under it).
 */
export const DEFAULT_TEMPORAL_CALL_TIMEOUT_MS = 20_000;

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a whole number of milliseconds above 0, not ${JSON.stringify(text)}`);
  return value;
}

/** `1`/`true` on, unset/`0`/`false` off; anything else is a typo worth stopping for. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0, not ${JSON.stringify(env[name])}`);
}

export function loadWebhookAllowLoopback(env: NodeJS.ProcessEnv): boolean {
  return flag(env, 'WEBHOOK_ALLOW_LOOPBACK');
}

/** An empty HOST would make Node listen on every interface: refuse it instead of guessing. */
function listenHost(env: NodeJS.ProcessEnv): string {
  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '') throw new Error('HOST must name an interface (e.g. 127.0.0.1, or 0.0.0.0 for every interface), not be empty');
  return host.trim();
}

export function basePath(apiPrefix: string): string {
  return `${apiPrefix.replace(/\/+$/, '')}/${API_VERSION}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const apiPrefix = env.API_PREFIX ?? '';
  return {
    databaseUrl: required(env, 'DATABASE_URL', 'point it at PostgreSQL, or start everything with `npm start`'),
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    host: listenHost(env),
    port,
    apiPrefix,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '') + basePath(apiPrefix),
    masterKey: parseMasterKey(required(env, 'MASTER_KEY', 'a base64 32-byte key (openssl rand -base64 32); `npm start` creates one in .data/')),
    logLevel: env.LOG_LEVEL ?? 'info',
    limits: loadAbuseLimits(env),
    apiMetrics: metricsListen(env, 'METRICS_PORT', 9464),
    workerMetrics: metricsListen(env, 'WORKER_METRICS_PORT', 9465),
    temporalMetricsAddress: env.TEMPORAL_METRICS_ADDRESS === 'off' ? null : (env.TEMPORAL_METRICS_ADDRESS ?? '127.0.0.1:9466'),
    tracing: !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    webhookAllowLoopback: loadWebhookAllowLoopback(env),
    temporalCallTimeoutMs: positiveMs(env, 'TEMPORAL_CALL_TIMEOUT_MS', DEFAULT_TEMPORAL_CALL_TIMEOUT_MS),
    workflowStackTraces: flag(env, 'WORKFLOW_STACK_TRACES'),
  };
}
