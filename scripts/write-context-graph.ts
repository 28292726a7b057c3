/**
 * Rewrites the context graph in docs/architecture.md from the code's imports
 * (`npx tsx scripts/write-context-graph.ts`). test/tooling/context-graph.test.ts fails when it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextEdges, withContextGraph } from '../test/support/context-graph';

const path = join(__dirname, '..', 'docs', 'architecture.md');
const edges = contextEdges();
writeFileSync(path, withContextGraph(readFileSync(path, 'utf8'), edges));
console.log(`docs/architecture.md: the context graph, ${edges.length} arrows`);
