import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The dependency rules between business contexts (README, Layout): one written order, each context
// importing only lower ones and only through their face (index.ts); nothing outside a context
// imports its api/ (routes are discovered); services and rules import nothing of src/api.
// CONTEXT_DEPENDENCIES_ROOT lets the same checks run on another checkout of the tree.
const ROOT = resolve(process.env.CONTEXT_DEPENDENCIES_ROOT ?? join(__dirname, '..', '..'));
const CONTEXTS = join(ROOT, 'src', 'contexts');

/** Lowest first; contexts in one layer don't import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['platforms'],
  ['webhooks'],
  ['ledger'],
  ['platform-setup'],
  ['customers'],
  ['directories'],
  ['external-accounts'],
  ['cards'],
  ['payments'],
  ['stablecoins', 'invitations'],
];
const layerOf = (context: string) => LAYERS.findIndex((layer) => layer.includes(context));

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file imports or re-exports, resolved to a path under ROOT (without extension). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'/g)].map((m) => m[1] ?? m[2]!);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(dirname(file), s)).replace(/\.ts$/, ''));
}

/** The context a repository path lies in, and the rest of its path inside that context. */
function contextPart(path: string): { context: string; inner: string } | null {
  const m = /^src\/contexts\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!m || !existsSync(join(CONTEXTS, m[1]!)) || !statSync(join(CONTEXTS, m[1]!)).isDirectory()) return null;
  return { context: m[1]!, inner: m[2] ?? '' };
}

const contextFolders = readdirSync(CONTEXTS).filter((name) => statSync(join(CONTEXTS, name)).isDirectory());

describe('dependencies between contexts', () => {
  test('every context has its place in the order and a face', () => {
    expect(contextFolders.filter((c) => layerOf(c) < 0)).toEqual([]);
    expect(contextFolders.filter((c) => !existsSync(join(CONTEXTS, c, 'index.ts')))).toEqual([]);
  });

  test('a context imports only lower contexts, and only through their face', () => {
    const breaches: string[] = [];
    for (const context of contextFolders) {
      for (const file of sourceFiles(join(CONTEXTS, context))) {
        for (const target of importsOf(file)) {
          const to = contextPart(target);
          if (!to || to.context === context) continue;
          const where = `${relative(ROOT, file)} -> ${target}`;
          if (layerOf(to.context) >= layerOf(context)) breaches.push(`not lower: ${where}`);
          if (to.inner !== '' && to.inner !== 'index') breaches.push(`not the face: ${where}`);
        }
      }
    }
    expect(breaches).toEqual([]);
  });

  test("a face never exports the context's api/", () => {
    const faces = contextFolders.map((c) => join(CONTEXTS, c, 'index.ts')).filter((f) => existsSync(f));
    expect(faces.flatMap((f) => importsOf(f).filter((t) => contextPart(t)?.inner.startsWith('api')))).toEqual([]);
  });

  test("nothing outside a context imports a context's api/", () => {
    const outside = [
      ...sourceFiles(join(ROOT, 'src')).filter((f) => !f.startsWith(CONTEXTS + '/') || !contextPart(relative(ROOT, f))),
      ...['activities', 'workflows', 'worker'].flatMap((d) => sourceFiles(join(ROOT, d))),
    ];
    const breaches = outside.flatMap((file) =>
      importsOf(file)
        .filter((t) => contextPart(t)?.inner.startsWith('api/'))
        .map((t) => `${relative(ROOT, file)} -> ${t}`),
    );
    expect(breaches).toEqual([]);
  });

  test('services, rules, entities and gates import nothing of src/api', () => {
    const breaches = contextFolders.flatMap((context) =>
      ['services', 'domain', 'entities', 'gates']
        .flatMap((layer) => sourceFiles(join(CONTEXTS, context, layer)))
        .flatMap((file) =>
          importsOf(file)
            .filter((t) => t.startsWith('src/api/'))
            .map((t) => `${relative(ROOT, file)} -> ${t}`),
        ),
    );
    expect(breaches).toEqual([]);
  });
});
