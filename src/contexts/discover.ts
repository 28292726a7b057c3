import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Registration by convention: every business context owns one folder under each layer
 * (`src/contexts/<name>`, `activities/<name>`, `workflows/<name>`), and each layer finds its
 * contexts' parts here instead of in hand-kept lists. `entry` is a module path inside each
 * context folder (`api/index`, `entities/index`, `index`); TypeScript sources are loaded under
 * tsx and jest, compiled JavaScript in a build. Folders load in name order, so the result is
 * stable.
 */
export function discover<T>(dir: string, entry: string): { context: string; module: T }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((context) => {
      const file = ['.ts', '.js'].map((ext) => join(dir, context, entry + ext)).find((f) => existsSync(f));
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- discovery loads modules by path
      return file ? [{ context, module: require(file) as T }] : [];
    });
}

/** The folder that holds the contexts' src parts. */
export const CONTEXTS_DIR = __dirname;
