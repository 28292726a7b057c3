import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * This runner is done with the project-owned PostgreSQL cluster its start script started or found running (bin/up and
 * bin/cluster start it with PG_RUNNER_PID set to the runner's pid and say which in OWN_POSTGRES_CLUSTER): the server
 * stops only if no other runner of this checkout still uses it and a runner started it (bin/lib/pg-runners.sh).
 */
export async function releaseOwnPostgres(root: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // With PG_STANDBY (bin/lib/cluster-standby.sh) its standby too, which bin/cluster starts the same way.
  for (const cluster of [env.OWN_POSTGRES_CLUSTER, env.OWN_POSTGRES_STANDBY]) {
    if (!cluster) continue;
    await new Promise<void>((done) =>
      spawn('bash', [join(root, 'bin/lib/postgres.sh'), 'release', cluster, String(process.pid)], { stdio: 'inherit' })
        .once('exit', () => done())
        .once('error', () => done()),
    );
  }
}
