import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm start`'s own PostgreSQL, found as the run command (bin/up) finds it: the project's cluster
 * `PG_CLUSTER` (default `postgres`) on 127.0.0.1:`PG_PORT` (default 55432), database `payments`,
 * user `payments`, with the password bin/lib/postgres.sh generated into `.data/<cluster>.password`.
 */
export interface StackDatabase {
  url: string;
  /** Where it is, for people: the URL without its password, and the cluster's name. */
  described: string;
}

const DATABASE = 'payments';
const USER = 'payments';

export function stackDatabase(env: NodeJS.ProcessEnv = process.env, root = resolve(__dirname, '../..')): StackDatabase {
  const cluster = env.PG_CLUSTER || 'postgres';
  const port = env.PG_PORT || '55432';
  const secretFile = join(root, '.data', `${cluster}.password`);
  if (!existsSync(secretFile)) {
    throw new Error(
      `DATABASE_URL is not set, and npm start's PostgreSQL cluster '${cluster}' has no password file (${secretFile}): run npm start once (it creates the cluster), or set DATABASE_URL`,
    );
  }
  const secret = readFileSync(secretFile, 'utf8').trim();
  const at = `${USER}@127.0.0.1:${port}/${DATABASE}`;
  return {
    url: `postgresql://${USER}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`,
    described: `postgresql://${at} (npm start's PostgreSQL cluster '${cluster}', password from ${secretFile})`,
  };
}

/** A database URL as it may be shown: without its password. */
export function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    return url.toString();
  } catch {
    return '(DATABASE_URL, not a URL)';
  }
}
