import type { z } from 'zod';
import { operationKey, serviceDocument, serviceRoutes, type AnyRoute } from '../support/service-document';
import type { SchemaObject } from '../support/openapi-sample';

/**
 * Every example in the service's own OpenAPI document passes the service's own checks: a client
 * that copies them gets a request the service accepts (the reference's CLABE example, for one,
 * fails the CLABE check digit, and money sent to a wrong CLABE is lost).
 *
 * For each operation with a JSON body, request bodies are built from the document's schema:
 * a baseline of the required properties (each from its example where it has one), then one body
 * per further example (an optional property, a whole-object example) and per union branch, each
 * validated with the route's own body schema.
 */

interface Sample {
  value: unknown;
  /** Where the examples this body carries sit in the document. */
  examples: string[];
}

type Schema = SchemaObject & { nullable?: boolean };
type Document = ReturnType<typeof serviceDocument>;

const SAMPLE_STRINGS: Record<string, string> = {
  date: '1990-01-15',
  'date-time': '2030-01-01T00:00:00.000Z',
  email: 'jane@example.com',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function bodies(doc: Document, root: Schema): Sample[] {
  const components = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const resolve = (s: Schema): [Schema, string | undefined] =>
    s.$ref ? [resolve(components[s.$ref.split('/').pop()!]!)[0], s.$ref.split('/').pop()] : [s, undefined];

  // `at` is the dotted path of a value; `trail` the named schemas on the way (union branches differ by them).
  const samples = (raw: Schema, at: string, trail = ''): Sample[] => {
    const [s, name] = resolve(raw);
    const within = name ? `${trail}/${name}` : trail;
    const here = `${at} @${within}`;
    const own: Sample[] = s.example !== undefined ? [{ value: s.example, examples: [here] }] : [];
    if (s.const !== undefined) return [{ value: s.const, examples: [] }];
    const branches = s.oneOf ?? s.anyOf;
    if (branches) {
      const all = branches.filter((b) => resolve(b)[0].type !== 'null').map((b) => samples(b, at, within));
      return [...all.flat(), ...own];
    }
    if (s.allOf) {
      const parts = s.allOf.map((p) => samples(p, at, within));
      const merge = (chosen: Sample[]) => ({ value: Object.assign({}, ...chosen.map((c) => c.value as object)), examples: chosen.flatMap((c) => c.examples) });
      const baseline = parts.map((p) => p[0]!);
      return [merge(baseline), ...parts.flatMap((p, i) => p.slice(1).map((v) => merge(baseline.map((b, j) => (j === i ? v : b))))), ...own];
    }
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    if (type === 'object' || (!type && s.properties)) {
      const properties = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      const of = new Map(properties.map(([p, schema]) => [p, samples(schema, at ? `${at}.${p}` : p, within)]));
      const baseline: Record<string, unknown> = {};
      const used: string[] = [];
      for (const [p] of properties) {
        if (!required.has(p)) continue;
        baseline[p] = of.get(p)![0]!.value;
        used.push(...of.get(p)![0]!.examples);
      }
      const variants: Sample[] = [];
      // Fields that only go together (an id and its type) are tried together too.
      const together = properties
        .filter(([p]) => !required.has(p))
        .map(([p]) => [p, of.get(p)!.find((v) => v.examples.length > 0)] as const)
        .filter(([, v]) => v);
      if (together.length > 1)
        variants.push({
          value: { ...baseline, ...Object.fromEntries(together.map(([p, v]) => [p, v!.value])) },
          examples: [...used, ...together.flatMap(([, v]) => v!.examples)],
        });
      for (const [p] of properties) {
        const candidates = required.has(p) ? of.get(p)!.slice(1) : of.get(p)!.filter((v) => v.examples.length > 0);
        for (const v of candidates) variants.push({ value: { ...baseline, [p]: v.value }, examples: [...used, ...v.examples] });
      }
      return [{ value: baseline, examples: used }, ...variants, ...own];
    }
    if (own.length > 0) return own;
    if (type === 'array') {
      const items = samples(s.items ?? {}, `${at}[]`, within);
      const count = Math.max(1, s.minItems ?? 0);
      return [
        { value: Array.from({ length: s.minItems ?? 0 }, () => items[0]!.value), examples: [] },
        ...items.filter((i) => i.examples.length > 0).map((i) => ({ value: Array.from({ length: count }, () => i.value), examples: i.examples })),
      ];
    }
    if (s.enum?.length) return [{ value: s.enum[0], examples: [] }];
    if (s.default !== undefined) return [{ value: s.default, examples: [] }];
    switch (type) {
      case 'integer':
      case 'number':
        return [{ value: s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1), examples: [] }];
      case 'boolean':
        return [{ value: false, examples: [] }];
      case 'string':
        return [{ value: SAMPLE_STRINGS[s.format ?? ''] ?? 'x'.repeat(Math.max(1, s.minLength ?? 1)), examples: [] }];
      default:
        return [{ value: null, examples: [] }];
    }
  };
  return samples(root, '');
}

const doc = serviceDocument();
const routes = serviceRoutes().filter((r): r is AnyRoute & { body: z.ZodType } => !!r.body && !r.multipart);
const paths = doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> } }>>;

const cases = routes.map((route) => {
  const key = operationKey(route);
  const [method, path] = key.split(' ') as [string, string];
  const content = paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!;
  const samples = [...bodies(doc, content.schema), ...(content.example !== undefined ? [{ value: content.example, examples: ['requestBody example'] }] : [])];
  return { key, route, samples: samples.filter((s) => s.examples.length > 0) };
});

test('the document has request-body examples to check', () => {
  expect(cases.length).toBeGreaterThan(30);
  expect(cases.reduce((n, c) => n + c.samples.length, 0)).toBeGreaterThan(100);
});

/** The dotted path of an example's place ('accountInfo.clabeNumber @/…/MxnExternalAccountCreateInfo' → 'accountInfo.clabeNumber'). */
const placeOf = (location: string) => location.replace(/ @.*$/, '').replace(/\[\]/g, '');

/**
 * The issues a body's examples cause: those at an example's place or inside it. The body's other
 * values are stand-ins where the document has no example (they may fail on their own: not what
 * is judged).
 */
function blamedIssues(route: { body: z.ZodType }, sample: Sample) {
  const result = route.body.safeParse(sample.value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const path = issue.path.join('.');
    const place = sample.examples.map(placeOf).find((p) => p === '' || path === p || path.startsWith(`${p}.`));
    return place === undefined ? [] : [{ place, at: path, value: valueAt(sample.value, issue.path), message: issue.message }];
  });
}

const valueAt = (value: unknown, path: PropertyKey[]) => path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], value);

/** An example is refused when no body that carries it is accepted at its place (some only go with others). */
function refusedExamples(route: { body: z.ZodType }, samples: Sample[]) {
  const accepted = new Set<string>();
  const refused = new Map<string, ReturnType<typeof blamedIssues>[number]>();
  for (const sample of samples) {
    const blamed = blamedIssues(route, sample);
    for (const location of sample.examples) {
      const issue = blamed.find((b) => b.place === placeOf(location));
      if (!issue) accepted.add(location);
      else if (!refused.has(location)) refused.set(location, { ...issue, place: location });
    }
  }
  return [...refused.entries()].filter(([location]) => !accepted.has(location)).map(([, issue]) => issue);
}

test.each(cases.map((c) => [c.key, c] as const))('%s: every example passes the route’s own body schema', (_key, { route, samples }) => {
  expect(refusedExamples(route, samples)).toEqual([]);
});
