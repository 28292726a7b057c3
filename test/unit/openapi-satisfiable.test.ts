import { serviceDocument } from '../support/service-document';
import { SchemaInstances, sampleOfPattern, type JsonSchema } from '../support/schema-instances';

/**
 * Every request schema of the service's own OpenAPI document (what GET /openapi.json serves) can
 * be satisfied: a client generated from it, or a fuzzer (schemathesis reports an unsatisfiable
 * schema as a schema error), can build a request the document accepts. Each request body, each
 * union branch and each declared property within it, and each parameter must have a value the
 * document itself (validated by ajv) accepts.
 */

interface Operation {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const document = serviceDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const instances = new SchemaInstances(document);

/** Where a schema sits, and the schema: every request body and, within it, every union branch and declared property. */
function requestSchemas(): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [];
  const visited = new Set<string>();
  const walk = (schema: JsonSchema, where: string) => {
    found.push([where, schema]);
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      if (visited.has(name)) return;
      visited.add(name);
      return walk(document.components.schemas[name]!, `#/components/schemas/${name}`);
    }
    for (const [keyword, members] of [
      ['oneOf', schema.oneOf],
      ['anyOf', schema.anyOf],
      ['allOf', schema.allOf],
    ] as const)
      members?.forEach((member, i) => walk(member, `${where}/${keyword}/${i}`));
    for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}/properties/${name}`);
    if (schema.items) walk(schema.items, `${where}/items`);
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const [type, { schema }] of Object.entries(operation.requestBody?.content ?? {})) walk(schema, `${at} body (${type})`);
      for (const parameter of operation.parameters ?? []) if (parameter.schema) walk(parameter.schema, `${at} ${parameter.in} parameter ${parameter.name}`);
    }
  }
  return found;
}

describe("the service's OpenAPI request schemas", () => {
  test('every request body, union branch, property and parameter has a value the document accepts', () => {
    const schemas = requestSchemas();
    expect(schemas.length).toBeGreaterThan(500);
    const unsatisfiable = schemas.filter(([, schema]) => !instances.instanceOf(schema)).map(([where]) => where);
    expect(unsatisfiable).toEqual([]);
  });

  test('the check finds the schemas nothing satisfies', () => {
    const closedSibling: JsonSchema = {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'] },
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
      ],
    };
    expect(instances.instanceOf(closedSibling)).toBeUndefined();
    expect(instances.instanceOf({ type: 'string', enum: [] })).toBeUndefined();
    expect(instances.instanceOf({ allOf: [{ type: 'string' }, { type: 'integer' }] })).toBeUndefined();
    expect(instances.instanceOf({ type: 'string', pattern: '^[a-z]+$/u' })).toBeUndefined();
    // … and finds a value for what can be satisfied.
    expect(instances.instanceOf({ type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' })).toEqual({ value: '+10' });
    expect(instances.instanceOf({ allOf: [closedSibling.allOf![0]!, { type: 'object', properties: { a: {}, b: {} }, additionalProperties: false }] })).toEqual({
      value: { a: 'x', b: 'x' },
    });
    expect(sampleOfPattern('^(0[23][0-9a-f]{2}|04[0-9a-f]{4})$')).toBe('0200');
  });
});
