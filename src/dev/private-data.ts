import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * What the stack keeps in its state folder is its owner's only: the Temporal dev server's SQLite
 * file holds every workflow's history (business ids, receivers' answers), next to the master key,
 * the sandbox credentials and PostgreSQL's password. The runner sets this umask, so that whatever
 * it and its children create there (the SQLite file, its -wal and -shm companions) is 600, and
 * folders 700.
 */
export const PRIVATE_UMASK = 0o077;

/**
 * Sets the runner's umask and takes away what an earlier version left readable in `dataDir`: its
 * files become 600 and its folders 700. Left alone: symbolic links, what another user owns (the
 * system user `postgres` owns the cluster, its socket folder and log when the stack runs as root)
 * and the insides of a PostgreSQL cluster, which initdb already keeps private. When another user
 * owns something inside a folder, that folder is 711 instead: that user may pass through to
 * its own entry, and nobody else may list it.
 */
export function keepDataPrivate(dataDir: string): void {
  process.umask(PRIVATE_UMASK);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  const ours = (stat: Stats) => uid === undefined || stat.uid === uid;
  const tighten = (path: string, stat: Stats, mode: number) => {
    if ((stat.mode & 0o777) !== mode) chmodSync(path, mode);
  };
  const visit = (dir: string): boolean => {
    let othersInside = false;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      let stat: Stats;
      try {
        stat = lstatSync(path);
      } catch {
        continue; // gone meanwhile
      }
      if (stat.isSymbolicLink()) continue;
      if (!ours(stat)) {
        othersInside = true;
        continue;
      }
      if (stat.isDirectory()) {
        const isCluster = existsSync(join(path, 'PG_VERSION'));
        tighten(path, stat, !isCluster && visit(path) ? 0o711 : 0o700);
      } else if (stat.isFile()) {
        tighten(path, stat, 0o600);
      }
    }
    return othersInside;
  };
  const othersInside = visit(dataDir);
  tighten(dataDir, lstatSync(dataDir), othersInside ? 0o711 : 0o700);
}
