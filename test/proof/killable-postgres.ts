import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A project-owned PostgreSQL cluster (`.data/<clusterName>`, bin/lib/postgres.sh) that a proof stack can SIGKILL
 * and start again on the same port and data: the dev stack's and the cluster stack's database.
 */

const root = resolve(__dirname, '../..');

export class KillablePostgres {
  constructor(
    readonly clusterName: string,
    readonly port: number,
  ) {}

  /** Starts it (again, after a kill: same port, same data). */
  start(): void {
    const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'start', this.clusterName, String(this.port)], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`PostgreSQL did not start: ${result.stderr}`);
  }

  stop(): void {
    spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', this.clusterName], { stdio: 'ignore' });
  }

  /** Deletes its data (stopping it first): a fresh start. */
  remove(): void {
    const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'remove', this.clusterName], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`PostgreSQL ${this.clusterName} was not removed: ${result.stderr}`);
  }

  /** Makes it a streaming standby of the running cluster `primary` (bin/lib/postgres.sh standby) and starts it. */
  makeStandbyOf(primary: string, mode: 'sync' | 'async'): void {
    const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'standby', this.clusterName, String(this.port), primary, mode], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`PostgreSQL ${this.clusterName} did not become a standby of ${primary}: ${result.stderr}`);
  }

  /** The cluster's URL (with its generated password) for one of its databases. */
  url(database: string): string {
    const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'url', this.clusterName, String(this.port), database], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`no URL for PostgreSQL ${this.clusterName}: ${result.stderr}`);
    return result.stdout.trim();
  }

  /** SIGKILL, no warning: the postmaster and every backend at once. */
  kill(): void {
    const pid = this.postmasterPid();
    if (pid === undefined) return;
    const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    for (const p of [pid, ...children]) spawnSync('kill', ['-9', String(p)]);
    // Where nobody reaps orphans (a container's init), the dead postmaster stays a zombie that
    // pg_ctl and the next postmaster take for a running server: wait for the processes to die,
    // then drop the lock files it left (the data directory's and the Unix socket's).
    while ([pid, ...children].some(isAlive)) spawnSync('sleep', ['0.05']);
    for (const lockFile of this.lockFiles()) rmSync(lockFile, { force: true });
  }

  private get pidFile(): string {
    return join(root, '.data', this.clusterName, 'postmaster.pid');
  }

  private postmasterPid(): number | undefined {
    if (!existsSync(this.pidFile)) return undefined;
    const pid = Number(readFileSync(this.pidFile, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** postmaster.pid names the port (line 4) and the socket folder (line 5) of its socket lock. */
  private lockFiles(): string[] {
    if (!existsSync(this.pidFile)) return [];
    const [, , , port, socketDir] = readFileSync(this.pidFile, 'utf8').split('\n');
    const socketLock = port && socketDir ? [join(socketDir, `.s.PGSQL.${port}.lock`)] : [];
    return [this.pidFile, ...socketLock];
  }
}

/** Running, not dead and not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}
