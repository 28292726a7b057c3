import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// A retired workflow type stays bundled only for runs that may still be open, and its histories keep
// it honest (replay.test.ts). It says so in its first line, and nothing in the service starts it again.

const root = join(__dirname, '../..');
const retiredDir = join(root, 'workflows/payments/retired');
const retiredTypes = ['quote', 'outgoingPayment'];

function tsFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

test('each retired workflow says in its first line since when it is retired, when it can go and which histories replay it', () => {
  const files = readdirSync(retiredDir).filter((name) => name.endsWith('.ts'));
  expect(files.sort()).toEqual(['outgoing-payment.ts', 'quote.ts']);
  const notes = files.map((name) => readFileSync(join(retiredDir, name), 'utf8'));
  for (const text of notes) {
    expect(text).toMatch(/^\/\/ RETIRED since [0-9a-f]{7}/);
    expect(text.slice(0, 1200)).toMatch(/test\/histories\/\S*(quote|outgoingPayment)/);
  }
  expect(notes.join('\n')).toMatch(/Delete it[^]*once every deployment/);
});

test('nothing outside the retired folder starts a retired type or imports one (the bundle list excepted)', () => {
  const starts = new RegExp(`<typeof (${retiredTypes.join('|')})>|startChild\\((${retiredTypes.join('|')})\\b|\\(\\s*'(${retiredTypes.join('|')})'`);
  const offenders = ['src', 'worker', 'activities', 'workflows']
    .flatMap((folder) => tsFiles(join(root, folder)))
    .filter((path) => !path.startsWith(retiredDir))
    .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }))
    .filter(({ file, text }) => starts.test(text) || (/from '[^']*\/retired\//.test(text) && file !== 'workflows/payments/index.ts'))
    .map(({ file }) => file);
  expect(offenders).toEqual([]);
});
