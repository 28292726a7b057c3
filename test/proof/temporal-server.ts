import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureNamespace, writeTemporalConfigs, type TemporalPostgres, type TemporalServerPorts } from '../../src/dev/cluster-configs';
import { freeLowPorts, freePorts, waitForPort } from '../../src/dev/ports';
import { waitForRing } from '../../src/dev/temporal-ring';

/**
 * The production Temporal server (the cached build of bin/lib/temporal-server.sh) on a PostgreSQL server of the
 * caller's, on free loopback ports: for the proofs and benches that run the production topology beside anything
 * else on the machine. Its databases are `temporal` and `temporal_visibility` on that server (made and migrated
 * by bin/lib/temporal-schema.sh), so give each such server a PostgreSQL of its own.
 */

const root = resolve(__dirname, '../..');

export interface TemporalServer {
  /** host:port of its frontend. */
  readonly address: string;
  readonly ports: TemporalServerPorts;
  /** The running process (undefined before start()). */
  readonly proc: ChildProcess | undefined;
  /**
   * Starts the server (again, after a kill: same ports, same databases); resolves once `default` answers. A node of
   * several (prepareTemporalNodes) also waits until it sees `ringSize` history hosts (default: every node).
   */
  start(ringSize?: number): Promise<void>;
}

/** The cached server folder; throws when it is not built (bin/lib/temporal-server.sh builds it; .ci/run does). */
export function temporalServerDir(): string {
  const result = spawnSync('bash', [join(root, 'bin/lib/temporal-server.sh'), '--cached'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error('the Temporal server is not built: run bin/lib/temporal-server.sh once (about 17 minutes)');
  return result.stdout.trim();
}

/**
 * Applies the schemas on the PostgreSQL server `postgresUrl` points at (any database of it), writes the
 * server's configuration under `dataDir`, and returns the server, not yet started. Its log is `logFile`.
 */
export async function prepareTemporalServer(options: {
  postgresUrl: string;
  dataDir: string;
  logFile: string;
  say?: (m: string) => void;
}): Promise<TemporalServer> {
  const say = options.say ?? (() => undefined);
  const pg = applyTemporalSchemas(options.postgresUrl);
  const serverDir = temporalServerDir();
  const ports = await freeTemporalPorts();
  const { temporalRoot } = writeTemporalConfigs(root, options.dataDir, ports, pg);
  const address = `127.0.0.1:${ports.frontend}`;
  let proc: ChildProcess | undefined;
  return {
    address,
    ports,
    get proc() {
      return proc;
    },
    async start() {
      proc = spawnServerProcess(serverDir, temporalRoot, options.logFile);
      await waitForPort(ports.frontend, 120_000);
      await ensureNamespace(address, say);
    },
  };
}

/**
 * The production Temporal server as `nodes` processes in one membership ring on the PostgreSQL server `postgresUrl`
 * points at, as `npm run start:cluster` runs it: each node all four services on free ports of its own, its
 * configuration under `dataDir/temporal-<n>/`, its log `temporal-<n>.log` in `dataDir`; the cluster's address
 * (clusterMetadata rpcAddress, the Web UI's) is `sharedFrontendPort`, HAProxy's in front of the nodes
 * (writeTemporalLbConfig). Start node 1 first: it creates the cluster's metadata; each start resolves once the node's
 * frontend answers for `default` and the node sees the history hosts it is told to expect in its ring (it joined).
 */
export async function prepareTemporalNodes(options: {
  postgresUrl: string;
  dataDir: string;
  nodes: number;
  sharedFrontendPort: number;
  say?: (m: string) => void;
}): Promise<TemporalServer[]> {
  const say = options.say ?? (() => undefined);
  const pg = applyTemporalSchemas(options.postgresUrl);
  const serverDir = temporalServerDir();
  const servers: TemporalServer[] = [];
  for (let index = 1; index <= options.nodes; index++) {
    const ports = await freeTemporalPorts();
    const { temporalRoot } = writeTemporalConfigs(root, options.dataDir, ports, pg, { index, sharedFrontendPort: options.sharedFrontendPort });
    const address = `127.0.0.1:${ports.frontend}`;
    const logFile = join(options.dataDir, `temporal-${index}.log`);
    let proc: ChildProcess | undefined;
    servers.push({
      address,
      ports,
      get proc() {
        return proc;
      },
      async start(ringSize = options.nodes) {
        proc = spawnServerProcess(serverDir, temporalRoot, logFile);
        await waitForPort(ports.frontend, 120_000);
        await ensureNamespace(address, say);
        await waitForRing(address, ringSize, 120_000);
      },
    });
  }
  return servers;
}

/** Applies bin/lib/temporal-schema.sh on the PostgreSQL server `postgresUrl` points at; returns that server's address and credentials. */
function applyTemporalSchemas(postgresUrl: string): TemporalPostgres {
  const url = new URL(postgresUrl);
  const pg = { host: url.hostname, port: url.port || '5432', user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  const schema = spawnSync('bash', [join(root, 'bin/lib/temporal-schema.sh')], {
    env: { ...process.env, SQL_HOST: pg.host, SQL_PORT: pg.port, SQL_USER: pg.user, SQL_PASSWORD: pg.password },
    encoding: 'utf8',
  });
  if (schema.status !== 0) throw new Error(`temporal-schema.sh failed: ${schema.stderr}`);
  return pg;
}

/** Free loopback ports for one server's services (membership ports from the low range the server accepts). */
async function freeTemporalPorts(): Promise<TemporalServerPorts> {
  const [frontend, frontendHttp, history, matching, worker, metrics, ui] = (await freePorts(7)) as [number, number, number, number, number, number, number];
  const [frontendMembership, historyMembership, matchingMembership, workerMembership] = (await freeLowPorts(4)) as [number, number, number, number];
  return { frontend, frontendHttp, frontendMembership, history, historyMembership, matching, matchingMembership, worker, workerMembership, metrics, ui };
}

/** One `temporal-server` process of `temporalRoot`'s configuration, its output appended to `logFile`. */
function spawnServerProcess(serverDir: string, temporalRoot: string, logFile: string): ChildProcess {
  const log = createWriteStream(logFile, { flags: 'a' });
  const proc = spawn(join(serverDir, 'temporal-server'), ['--root', temporalRoot, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  return proc;
}
