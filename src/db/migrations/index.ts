import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationObject } from '@mikro-orm/core';

/**
 * Every migration in this folder, in name (= time) order: a new migration is a new
 * `Migration<yyyymmddhhmmss>_<what>.ts` file exporting a class of the same name, nothing else to
 * register. The schema is one history shared by all contexts, so it lives in one folder.
 */
export const migrationsList = readdirSync(__dirname)
  .filter((file) => /^Migration\d{14}_\w+\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
  .map((file) => file.replace(/\.(ts|js)$/, ''))
  .sort()
  .map((name) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- migrations are found by file name
    const module = require(join(__dirname, name)) as Record<string, MigrationObject['class'] | undefined>;
    const migration = module[name];
    if (!migration) throw new Error(`${name}.ts must export a class named ${name}`);
    return { name, class: migration } satisfies MigrationObject;
  });
