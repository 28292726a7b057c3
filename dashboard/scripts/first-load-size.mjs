// The JavaScript a browser fetches to show the dashboard, gzip-compressed (zlib level 9, as a server's
// static gzip would send it): the first load (the entry script and its module preloads, from dist/index.html)
// and, for scale, the signed-in Home page with its charts (from Vite's manifest).
// Usage: node dashboard/scripts/first-load-size.mjs [dist dir]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? new URL('../dist', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const firstLoad = files.reduce((sum, f) => sum + gz(f), 0);

// The Home page after sign-in: the entry, the Home chunk and the charts chunk, each with its static imports.
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const closure = (key, seen = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
};
const home = new Set();
for (const key of ['index.html', 'src/pages/Home.tsx', 'src/components/Charts.tsx']) closure(key, home);
const homeBytes = [...home].reduce((sum, f) => sum + gz(f), 0);

const LIMIT = 350 * 1024;
console.log(
  `[setup] dashboard: first load ${kb(firstLoad)} of JavaScript (gzip -9, ${files.length} files; limit ${kb(LIMIT)}); signed-in Home with charts ${kb(homeBytes)}`,
);
if (firstLoad > LIMIT) {
  console.error(`[setup] dashboard: the first load is over ${kb(LIMIT)}: split the new code with React.lazy`);
  process.exit(1);
}
