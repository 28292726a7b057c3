import { join } from 'node:path';
import { haproxySocketOf } from './cluster-configs';
import { CLUSTER_PORTS as P } from './cluster-ports';
import { rollApis, rollWorkers, UnversionedCluster, type ApiFleet, type WorkerFleet } from './rolling-deploy';
import { askRunner } from './runner-requests';

/**
 * `npm run deploy:apis` and `npm run deploy:workers` (bin/deploy compiles, then runs this) on a running
 * `npm run start:cluster`: the steps of src/dev/rolling-deploy.ts, with the cluster's runner stopping and starting
 * the replicas (src/dev/runner-requests.ts). docs/production.md "Rolling deploys".
 */

const say = (line: string) => process.stderr.write(`[deploy] ${line}\n`);

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bin/deploy sets it)`);
  return value;
}

const dataDir = env('CLUSTER_DATA_DIR');
const requests = join(dataDir, 'run/requests');

const apiFleet: ApiFleet = {
  haproxySocket: haproxySocketOf(join(dataDir, 'haproxy.cfg')),
  replicas: P.apiReplicas.map((port, i) => ({ name: `api-${i + 1}`, server: `api${i + 1}`, readyUrl: `http://127.0.0.1:${port}/ready` })),
  restart: async (name) => void (await askRunner(requests, { action: 'restart', name })),
};

const workerFleet = (): WorkerFleet => ({
  temporalAddress: `127.0.0.1:${P.temporal}`,
  namespace: process.env.TEMPORAL_NAMESPACE || 'default',
  temporalCli: env('TEMPORAL_CLI_PATH'),
  workers: async () => ((await askRunner(requests, { action: 'status' })).replicas ?? []).filter((r) => r.name.startsWith('worker-')),
  startWorkers: async (buildId, buildDir) => (await askRunner(requests, { action: 'start-workers', buildId, buildDir })).started ?? [],
  // A worker ends its in-flight tasks before it exits.
  retire: async (name) => void (await askRunner(requests, { action: 'retire', name }, 600_000)),
});

async function main(): Promise<void> {
  const [what, buildDir] = process.argv.slice(2);
  if (what === 'apis') {
    const figures = await rollApis(apiFleet, say);
    for (const r of figures.replicas)
      process.stdout.write(
        `${r.name}: drained in ${r.drainMs} ms, ready on the new build ${r.readyMs} ms after it was stopped, back in HAProxy after ${r.backMs} ms\n`,
      );
    process.stdout.write(`APIs deployed in ${(figures.totalMs / 1000).toFixed(1)} s, one at a time\n`);
    return;
  }
  if (what === 'workers' && buildDir) {
    const minutes = Number(process.env.DEPLOY_DRAIN_TIMEOUT_MINUTES ?? 60);
    const figures = await rollWorkers(workerFleet(), { buildId: env('WORKER_BUILD_ID'), buildDir }, say, { drainTimeoutMs: minutes * 60_000 });
    process.stdout.write(
      `workers deployed: ${figures.deploymentName}:${figures.to} current after ${(figures.currentMs / 1000).toFixed(1)} s; ` +
        `${figures.from.join(', ') || 'no older build'} drained and stopped (${figures.retired.join(', ') || 'none'}) after ${(figures.drainedMs / 1000).toFixed(1)} s\n`,
    );
    return;
  }
  throw new Error('usage: deploy.js apis | deploy.js workers <compiled build folder>');
}

main().catch((err: unknown) => {
  say(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UnversionedCluster ? 2 : 1);
});
