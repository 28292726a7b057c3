import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The dev server's --search-attribute flags, from the same list bin/lib/temporal-dev.sh uses. */
export function searchAttributeFlags(): string[] {
  const file = resolve(__dirname, '../../bin/lib/search-attributes.txt');
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .flatMap((l) => ['--search-attribute', l]);
}
