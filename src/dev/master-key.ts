import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The local stack's state folder: `.data`, or DEV_DATA_DIR (the runner's own tests use another). */
export function stackDataDir(): string {
  return resolve(process.env.DEV_DATA_DIR ?? join(resolve(__dirname, '../..'), '.data'));
}

/**
 * The stack's master key (base64): MASTER_KEY, else the one `npm start` keeps in the state folder,
 * made there on first start (`create`). Client secrets are hashed with a key derived from it, so
 * every tool that mints tokens for the stack must use this one key.
 */
export function stackMasterKey(dataDir: string, options: { create: boolean }): string {
  if (process.env.MASTER_KEY) return process.env.MASTER_KEY;
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) {
    if (!options.create) throw new Error(`MASTER_KEY is not set and ${file} does not exist: give the API its MASTER_KEY`);
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}
