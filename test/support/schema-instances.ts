import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** An OpenAPI 3.1 schema object, as far as an instance is built from it. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const FORMAT_SAMPLES: Record<string, string> = {
  date: '1990-01-15',
  'date-time': '2030-01-01T00:00:00.000Z',
  email: 'jane@example.com',
  uri: 'https://example.com/x',
  uuid: '00000000-0000-4000-8000-000000000000',
  binary: 'x',
};

/**
 * Finds a value that an OpenAPI document's schema accepts, checked by ajv against the document
 * itself: a schema no value satisfies (an `allOf` member closing the properties its sibling
 * requires, an empty enum, a pattern no string matches …) yields none. The search is small and
 * greedy — the examples, enum values, defaults, a string made from the pattern, each union
 * branch, the required properties — which is enough for schemas a client is meant to fill.
 */
export class SchemaInstances {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<JsonSchema, ValidateFunction>();
  private readonly components: Record<string, JsonSchema>;

  constructor(document: { components?: { schemas?: Record<string, unknown> } }) {
    addFormats(this.ajv);
    for (const format of ['int64', 'int32', 'double', 'float', 'binary']) this.ajv.addFormat(format, true);
    this.components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
    // Refs are document-relative (#/components/schemas/X): the document is the base every subschema resolves against.
    this.ajv.addSchema({ $id: 'document', components: document.components ?? {} });
  }

  /** Whether `value` is valid against `schema` (a schema of the document, inline or a $ref). */
  accepts(schema: JsonSchema, value: unknown): boolean {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rebased(schema) as object);
      this.validators.set(schema, validate);
    }
    return validate(value) as boolean;
  }

  /** A value `schema` accepts, or undefined when none was found. */
  instanceOf(schema: JsonSchema, depth = 0): { value: unknown } | undefined {
    if (depth > 12) return undefined;
    for (const candidate of this.candidates(schema, depth)) if (this.accepts(schema, candidate)) return { value: candidate };
    return undefined;
  }

  /** The schema a $ref names (followed to its end). */
  private resolve(schema: JsonSchema): JsonSchema {
    return schema.$ref ? this.resolve(this.components[schema.$ref.split('/').pop()!]!) : schema;
  }

  private *candidates(raw: JsonSchema, depth: number): Generator<unknown> {
    const s = this.resolve(raw);
    if (s.const !== undefined) yield s.const;
    if (s.example !== undefined) yield s.example;
    yield* s.examples ?? [];
    yield* s.enum ?? [];
    if (s.default !== undefined) yield s.default;
    if (s.enum) return;
    for (const branch of s.oneOf ?? s.anyOf ?? []) {
      const found = this.instanceOf(branch, depth + 1);
      if (found) yield found.value;
    }
    if (s.allOf) {
      // Each member's own instance, merged; then one built from every member's properties at once.
      const parts = s.allOf.map((member) => this.instanceOf(member, depth + 1));
      if (parts.every(Boolean)) yield Object.assign({}, ...parts.map((p) => p!.value as object));
      const members = s.allOf.map((member) => this.resolve(member));
      yield* this.candidates(
        {
          type: 'object',
          properties: Object.assign({}, ...members.map((m) => m.properties ?? {})),
          required: members.flatMap((m) => m.required ?? []),
        },
        depth + 1,
      );
    }
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
    for (const type of types) yield* this.ofType(s, type, depth);
  }

  private *ofType(s: JsonSchema, type: string, depth: number): Generator<unknown> {
    switch (type) {
      case 'object': {
        const value: Record<string, unknown> = {};
        for (const name of s.required ?? []) {
          const property = s.properties?.[name] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : {});
          const found = this.instanceOf(property, depth + 1);
          if (!found) return;
          value[name] = found.value;
        }
        yield value;
        return;
      }
      case 'array': {
        const item = s.items ? this.instanceOf(s.items, depth + 1) : { value: 'x' };
        if (item) yield Array.from({ length: s.minItems ?? 0 }, () => item.value);
        return;
      }
      case 'integer':
      case 'number': {
        const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : 0);
        yield low;
        if (s.maximum !== undefined) yield s.maximum;
        return;
      }
      case 'boolean':
        yield false;
        return;
      case 'null':
        yield null;
        return;
      case 'string': {
        const length = Math.max(1, s.minLength ?? 1);
        if (s.format && FORMAT_SAMPLES[s.format]) yield FORMAT_SAMPLES[s.format];
        if (s.pattern !== undefined) {
          const sample = sampleOfPattern(s.pattern);
          if (sample !== undefined) yield sample;
          if (sample !== undefined && sample.length < length) yield sample.padEnd(length, sample.at(-1) ?? 'x');
        }
        yield 'x'.repeat(length);
        yield '0'.repeat(length);
        return;
      }
    }
  }
}

/** A copy of `schema` whose document-relative refs name the document (so that it compiles on its own). */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `document${value}` : rebased(value),
    ]),
  );
}

/**
 * The shortest string the common subset of regular expressions in request schemas matches
 * (anchors, classes, escapes, groups with alternatives, quantifiers), or undefined for what it
 * does not read. Whatever it makes is checked by ajv, so a wrong guess only loses a candidate.
 */
export function sampleOfPattern(pattern: string): string | undefined {
  let at = 0;
  const CLASS_ESCAPES: Record<string, string> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

  const atom = (): string | undefined => {
    const c = pattern[at++]!;
    if (c === '(') {
      if (pattern.startsWith('?:', at)) at += 2;
      const inner = alternatives();
      if (pattern[at++] !== ')') return undefined;
      return inner;
    }
    if (c === '[') {
      const negated = pattern[at] === '^';
      if (negated) at++;
      let first: string | undefined;
      while (at < pattern.length && pattern[at] !== ']') {
        const member = pattern[at] === '\\' ? escape() : pattern[at++];
        first ??= member;
      }
      at++;
      return negated ? (first === 'a' ? 'b' : 'a') : first;
    }
    if (c === '\\') {
      at--;
      return escape();
    }
    if (c === '.') return 'a';
    if (c === '^' || c === '$') return '';
    return c;
  };

  const escape = (): string | undefined => {
    at++; // the backslash
    const c = pattern[at++]!;
    if (c === 'p' || c === 'P') {
      const end = pattern.indexOf('}', at);
      const name = pattern.slice(at + 1, end);
      at = end + 1;
      return name.startsWith('N') ? '0' : 'a';
    }
    return CLASS_ESCAPES[c] ?? c;
  };

  const quantified = (): string | undefined => {
    const value = atom();
    if (value === undefined) return undefined;
    const q = pattern[at];
    let times = 1;
    if (q === '*' || q === '?') {
      times = 0;
      at++;
    } else if (q === '+') at++;
    else if (q === '{') {
      const end = pattern.indexOf('}', at);
      times = Number(pattern.slice(at + 1, end).split(',')[0]);
      at = end + 1;
    }
    return value.repeat(times);
  };

  const sequence = (): string | undefined => {
    let out = '';
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const part = quantified();
      if (part === undefined) return undefined;
      out += part;
    }
    return out;
  };

  const alternatives = (): string | undefined => {
    const first = sequence();
    while (pattern[at] === '|') {
      at++;
      sequence();
    }
    return first;
  };

  try {
    const sample = alternatives();
    return at === pattern.length ? sample : undefined;
  } catch {
    return undefined;
  }
}
