import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNBUILT_OPERATIONS } from '../../src/api/unbuilt-operations';
import { STRANDED_STARTS } from '../../src/contexts/stranded-starts';
import { serviceDocument } from '../support/service-document';

/** What the README, docs/ and openapi.json say of the code's own lists stays what the lists hold. */
const root = join(__dirname, '../..');
const page = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = page('README.md');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => page(`docs/${name}`));
const architecture = page('docs/architecture.md');
const paragraphAfter = (heading: string) => {
  const at = architecture.indexOf(heading);
  expect(at).toBeGreaterThanOrEqual(0);
  return architecture.slice(at, architecture.indexOf('\n\n', at));
};

test('nothing is called "not built yet" while every operation of the reference is built', () => {
  expect(UNBUILT_OPERATIONS).toEqual([]);
  const description = serviceDocument().info.description ?? '';
  expect(description).not.toMatch(/not built yet/i);
  // The README's opening (what the service is) and the API conventions (docs/api-conventions.md) name no operation as missing.
  expect(readme.indexOf('## The two commands')).toBeGreaterThan(0);
  expect(readme.slice(0, readme.indexOf('## The two commands'))).not.toMatch(/not built yet/i);
  expect(page('docs/api-conventions.md')).toContain('Every operation of the reference is built.');
  for (const text of [readme, ...docs])
    expect(text).not.toMatch(/answer `501 NOT_IMPLEMENTED` naming the operation,\s+after authentication \(`401` without credentials\)\. They are not in/);
});

test('the stranded-start paragraph names every kind the worker sweeps', () => {
  const paragraph = paragraphAfter('**Recorded first, started after the commit.**').replace(/\s+/g, ' ');
  for (const kind of STRANDED_STARTS) expect(paragraph).toContain(kind.name);
});

test('adding a context or a workflow: the Layout (docs/architecture.md) names every list a new context joins', () => {
  const paragraph = paragraphAfter('**What a change touches.**');
  for (const list of [
    'workflows/index.ts',
    'CONTEXT_ORDER',
    'src/contexts/stranded-starts.ts',
    'src/contexts/execution-gates.ts',
    'src/contexts/transaction-deciders.ts',
    'src/contexts/ledger-audit.ts',
  ])
    expect(paragraph).toContain(list);
  // A workflow's queue and versioning are in its kind: no list of queues to join.
  expect(paragraph).not.toContain('task-queues.ts');
});
