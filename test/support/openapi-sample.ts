/** The parts of an OpenAPI 3.1 schema object a sample is made from. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export interface OperationObject {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: SchemaObject }> };
  responses: Record<string, unknown>;
  'x-sandbox-only'?: boolean;
  /** The token permission the operation needs (src/api/permissions.ts). */
  'x-permission'?: 'VIEW' | 'TRANSACT' | 'MANAGE';
  /** Set on operations that take another credential: `[{ AgentAuth: [] }]` (an agent's bearer token), `[]` (none: the device-code redemption). */
  security?: Record<string, string[]>[];
  /** The agent policy permission an agent operation needs. */
  'x-agent-permission'?: string;
}

const SAMPLE_STRINGS: Record<string, string> = {
  date: '1990-01-01',
  'date-time': '2030-01-01T00:00:00.000Z',
  email: 'matrix@example.com',
  uri: 'https://example.com/matrix',
  url: 'https://example.com/matrix',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A small value of a schema from the document: its example, first enum value or first branch,
 * objects with their required properties, plus any property `fill` has a value for (for example
 * the id of an existing resource, by property name and dotted place). Good enough to get past
 * most validation.
 */
export function sampleOf(doc: OpenApiDocument, schema: SchemaObject, fill: (property: string, at: string) => unknown): unknown {
  const resolve = (s: SchemaObject): SchemaObject => (s.$ref ? resolve(doc.components!.schemas![s.$ref.split('/').pop()!]!) : s);
  const sample = (raw: SchemaObject, at = ''): unknown => {
    const s = resolve(raw);
    if (s.const !== undefined) return s.const;
    if (s.example !== undefined) return s.example;
    if (s.examples?.length) return s.examples[0];
    if (s.enum?.length) return s.enum[0];
    if (s.default !== undefined) return s.default;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part, at) as object));
    const branches = s.oneOf ?? s.anyOf;
    if (branches) return sample(branches.find((b) => resolve(b).type !== 'null') ?? branches[0]!, at);
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    switch (type) {
      case 'object': {
        const value: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(s.properties ?? {})) {
          const place = at ? `${at}.${name}` : name;
          const filled = fill(name, place);
          if (filled !== undefined) value[name] = filled;
          else if (s.required?.includes(name)) value[name] = sample(property, place);
        }
        return value;
      }
      case 'array':
        return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, at));
      case 'integer':
      case 'number':
        return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      case 'boolean':
        return false;
      case 'string':
        return SAMPLE_STRINGS[s.format ?? ''] ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
      default:
        return s.properties ? sample({ ...s, type: 'object' }, at) : null;
    }
  };
  return sample(schema);
}
