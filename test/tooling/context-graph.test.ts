import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextEdges, withContextGraph } from '../support/context-graph';

test('docs/architecture.md draws the contexts as the code imports them (npx tsx scripts/write-context-graph.ts rewrites it)', () => {
  const page = readFileSync(join(__dirname, '../../docs/architecture.md'), 'utf8');
  const edges = contextEdges();
  expect(edges.length).toBeGreaterThan(10);
  expect(page).toBe(withContextGraph(page, edges));
}, 120_000);
