/**
 * Turns what `npm run drill -- capacity` measured per payout into a sizing table for a volume and 10× and 100× of
 * it. Every line is a rule applied to a measured figure; the rules (and their constants, below) are what an
 * operator can argue with, the figures are what the drill saw.
 */

export interface Measured {
  /** What the measured run sustained on its machine. */
  payoutsPerSecond: number;
  /** CPU time per payout of each kind of process, all replicas together. */
  cpuMsPerPayout: { api: number; worker: number; temporal: number; postgres: number; haproxy: number };
  sqlStatementsPerPayout: number;
  /** Database transactions the service committed (its own counter). */
  serviceCommitsPerPayout: number;
  /** Commits PostgreSQL counted in all three databases: the service's and the Temporal server's. */
  databaseCommitsPerPayout: number;
  historyEventsPerPayout: number;
  workflowTasksPerPayout: number;
  /** Bytes of history (Temporal's history_node) one payout's workflow leaves. */
  historyBytesPerPayout: number;
  /** Growth of the payments database per payout (kept for good: ledger, transactions, webhooks). */
  paymentsDbBytesPerPayout: number;
  /** Growth of `temporal` and `temporal_visibility` per payout (removed after the namespace's retention). */
  temporalDbBytesPerPayout: number;
  walBytesPerPayout: number;
  /** Most connections to PostgreSQL one process held during the run. */
  peakConnections: { api: number; worker: number; temporal: number };
  /** The history shards the measured run's server had (deploy/temporal/server.yaml.template). */
  historyShards: number;
}

/** A process or core is planned at this share of a core at the planned rate, leaving room for peaks and a lost replica. */
export const TARGET_UTILISATION = 0.6;
/** Replicas of each stateless process, at least: one can be lost or redeployed while the other serves. */
export const MIN_REPLICAS = 2;
/** Cores per Temporal server node (all services in one process, as start:cluster runs them). */
export const CORES_PER_TEMPORAL_NODE = 4;
/** Closed workflows' histories are kept this long (the `default` namespace's retention, src/dev/cluster-configs.ts). */
export const RETENTION_DAYS = 7;
/** Pool ceilings per process: MikroORM's pool (src/db/mikro-orm.config.ts) and the server's maxConns and visibility's, per service. */
export const POOL_MAX = { api: 10, worker: 10, temporalPerService: 10 + 5, temporalServices: 4 };
/** PostgreSQL's default max_connections, minus a few kept for administrators and replication. */
export const USABLE_CONNECTIONS = 100 - 10;

const SECONDS_PER_DAY = 86_400;

function processesFor(rate: number, cpuMsPerPayout: number): number {
  return Math.max(MIN_REPLICAS, Math.ceil((rate * cpuMsPerPayout) / 1000 / TARGET_UTILISATION));
}

function cores(rate: number, cpuMsPerPayout: number): number {
  return (rate * cpuMsPerPayout) / 1000 / TARGET_UTILISATION;
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(n >= 100 || i === 0 ? 0 : 1)} ${units[i]}`;
}

export interface Tier {
  label: string;
  payoutsPerSecond: number;
  apiProcesses: number;
  workerProcesses: number;
  temporalCores: number;
  temporalNodes: number;
  historyShards: number;
  postgresCores: number;
  commitsPerSecond: number;
  walBytesPerSecond: number;
  paymentsDbBytesPerYear: number;
  temporalDbBytesSteady: number;
  poolConnections: number;
  pgbouncer: boolean;
}

/**
 * One tier. History shards are sized for the largest tier (their number is fixed for the life of Temporal's
 * databases): enough that no shard carries more payouts per second than one shard carried in the measured run,
 * which worked; that is a rate shown to work, not a limit, so the rule errs large.
 */
export function tier(m: Measured, label: string, rate: number, largestRate: number): Tier {
  const apiProcesses = processesFor(rate, m.cpuMsPerPayout.api);
  const workerProcesses = processesFor(rate, m.cpuMsPerPayout.worker);
  const temporalCores = cores(rate, m.cpuMsPerPayout.temporal);
  const temporalNodes = Math.max(MIN_REPLICAS, Math.ceil(temporalCores / CORES_PER_TEMPORAL_NODE));
  const perShardShown = m.payoutsPerSecond / m.historyShards;
  const historyShards = Math.max(16, nextPowerOfTwo(Math.ceil(largestRate / perShardShown)));
  // The service's pools at their ceiling (its processes multiply with volume), the server's nodes at the peak one
  // node held here (each of its services has a pool of its own, far from full at these rates).
  const poolConnections = apiProcesses * POOL_MAX.api + workerProcesses * POOL_MAX.worker + temporalNodes * m.peakConnections.temporal;
  return {
    label,
    payoutsPerSecond: rate,
    apiProcesses,
    workerProcesses,
    temporalCores,
    temporalNodes,
    historyShards,
    postgresCores: cores(rate, m.cpuMsPerPayout.postgres),
    commitsPerSecond: rate * m.databaseCommitsPerPayout,
    walBytesPerSecond: rate * m.walBytesPerPayout,
    paymentsDbBytesPerYear: rate * m.paymentsDbBytesPerPayout * SECONDS_PER_DAY * 365,
    temporalDbBytesSteady: rate * m.temporalDbBytesPerPayout * SECONDS_PER_DAY * RETENTION_DAYS,
    poolConnections,
    pgbouncer: poolConnections > USABLE_CONNECTIONS,
  };
}

/** The table `npm run drill -- capacity` prints: today's volume, 10× and 100×, with the rule of each line. */
export function sizingTable(m: Measured, todayPerSecond: number): string {
  const tiers = [
    tier(m, 'today', todayPerSecond, todayPerSecond * 100),
    tier(m, '10×', todayPerSecond * 10, todayPerSecond * 100),
    tier(m, '100×', todayPerSecond * 100, todayPerSecond * 100),
  ];
  const row = (name: string, cell: (t: Tier) => string, rule: string) => `| ${name} | ${tiers.map(cell).join(' | ')} | ${rule} |`;
  const c = m.cpuMsPerPayout;
  return [
    `| | ${tiers.map((t) => t.label).join(' | ')} | from |`,
    `|---|${tiers.map(() => '---').join('|')}|---|`,
    row('payouts per second', (t) => t.payoutsPerSecond.toFixed(1), `${m.payoutsPerSecond.toFixed(2)}/s measured on this machine`),
    row(
      'API processes',
      (t) => String(t.apiProcesses),
      `${c.api.toFixed(1)} CPU ms per payout, one core each at ${TARGET_UTILISATION * 100} %, at least ${MIN_REPLICAS}`,
    ),
    row('worker processes', (t) => String(t.workerProcesses), `${c.worker.toFixed(1)} CPU ms per payout, likewise`),
    row(
      'Temporal server: cores, nodes',
      (t) => `${t.temporalCores.toFixed(1)}, ${t.temporalNodes}`,
      `${c.temporal.toFixed(1)} CPU ms per payout, ${CORES_PER_TEMPORAL_NODE} cores per node, at least ${MIN_REPLICAS} nodes`,
    ),
    row(
      'history shards (fixed for good)',
      (t) => String(t.historyShards),
      `sized for 100×: ≤ ${(m.payoutsPerSecond / m.historyShards).toFixed(2)} payouts/s per shard, what ${m.historyShards} shards carried here (${m.historyEventsPerPayout.toFixed(1)} events, ${m.workflowTasksPerPayout.toFixed(1)} workflow tasks per payout)`,
    ),
    row(
      'PostgreSQL cores',
      (t) => t.postgresCores.toFixed(1),
      `${c.postgres.toFixed(1)} CPU ms per payout (the service's ${m.sqlStatementsPerPayout.toFixed(1)} statements and the server's)`,
    ),
    row(
      'PostgreSQL commits/s (fsyncs, at most)',
      (t) => t.commitsPerSecond.toFixed(0),
      `${m.databaseCommitsPerPayout.toFixed(1)} commits per payout (${m.serviceCommitsPerPayout.toFixed(1)} of them the service's); group commit merges concurrent ones`,
    ),
    row('WAL written', (t) => `${bytes(t.walBytesPerSecond)}/s`, `${bytes(m.walBytesPerPayout)} per payout; the same again per day to the WAL archive`),
    row('payments database growth per year', (t) => bytes(t.paymentsDbBytesPerYear), `${bytes(m.paymentsDbBytesPerPayout)} per payout, kept`),
    row(
      'Temporal databases, steady',
      (t) => bytes(t.temporalDbBytesSteady),
      `${bytes(m.temporalDbBytesPerPayout)} per payout (${bytes(m.historyBytesPerPayout)} of history) for ${RETENTION_DAYS} days' retention`,
    ),
    row(
      'connections (pool ceilings)',
      (t) => `${t.poolConnections}${t.pgbouncer ? ': PgBouncer' : ''}`,
      `the service's pools at their ceiling (${POOL_MAX.api} per API and worker; peaks seen ${m.peakConnections.api} and ${m.peakConnections.worker}) and each server node at the ${m.peakConnections.temporal} one held here (its ceiling: ${POOL_MAX.temporalPerService} per service × ${POOL_MAX.temporalServices}); over ${USABLE_CONNECTIONS}: the service's through PgBouncer (transaction pooling: it holds no session state, its advisory locks are per transaction)`,
    ),
  ].join('\n');
}
