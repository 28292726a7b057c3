import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/**
 * The public reference's OpenAPI document, prepared for validating this service's responses.
 * The project is checked out beside `shared/`, locally and in CI; a git worktree of it may sit a
 * level deeper, so the nearest `shared/` above the checkout counts (REFERENCE_OPENAPI_YAML names
 * the file outright).
 */
export const REFERENCE_YAML = process.env.REFERENCE_OPENAPI_YAML ?? nearestReference(resolve(__dirname, '../..'));

function nearestReference(checkout: string): string {
  const wanted = (dir: string) => join(dir, 'shared/reference/public-api-openapi.yaml');
  for (let dir = dirname(checkout); dir !== dirname(dir); dir = dirname(dir)) if (existsSync(wanted(dir))) return wanted(dir);
  return wanted(dirname(checkout));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface ReferenceDocument {
  paths: Record<string, Record<string, JsonObject>>;
  components: JsonObject;
  /**
   * Where each prepared schema object stands in the reference (a JSON pointer), so a difference
   * names the reference's own location even inside a `$ref`'d or synthesised schema.
   */
  locations: WeakMap<object, string>;
}

/**
 * The spec's names for the reference's (spec header note): `GRID_…` values are `SVC_…`,
 * `Grid-…` headers are `Svc-…`, `grid…` fields are `svc…`.
 */
export function svcName(name: string): string {
  return name
    .replace(/^GRID_/, 'SVC_')
    .replace(/^Grid-/, 'Svc-')
    .replace(/^grid(?=[A-Z])/, 'svc');
}

/**
 * Parsing 25k lines of YAML takes most of a second and jest loads modules afresh for every test
 * file: the parsed document is cached as JSON in `.data/`, keyed by the YAML's hash.
 */
function parsedReference(yamlPath: string): JsonObject {
  const text = readFileSync(yamlPath, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const cacheDir = resolve(__dirname, '../../.data/cache');
  const cached = join(cacheDir, `reference-openapi-${hash}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as JsonObject;
  const parsed = parseYaml(text) as JsonObject;
  mkdirSync(cacheDir, { recursive: true });
  // Test files load it in parallel: write aside and rename, so no one reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(parsed));
  renameSync(partial, cached);
  return parsed;
}

export function loadReferenceDocument(yamlPath = REFERENCE_YAML): ReferenceDocument {
  return prepareReferenceDocument(parsedReference(yamlPath));
}

/** Prepares a parsed OpenAPI 3.x document (exported for the validator's own tests). */
export function prepareReferenceDocument(raw: JsonObject): ReferenceDocument {
  const locations = new WeakMap<object, string>();
  const doc = structuredClone(raw);
  const components = (doc.components ?? {}) as JsonObject;
  const schemas = (components.schemas ?? {}) as JsonObject;
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = prepareSchema(schema, `#/components/schemas/${escapePointer(name)}`, locations);
  const paths = (doc.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
      for (const [status, response] of Object.entries(responses)) {
        const content = (response.content ?? {}) as Record<string, JsonObject>;
        for (const [mediaType, media] of Object.entries(content)) {
          if (media.schema === undefined) continue;
          const at = `#/paths/${escapePointer(path)}/${method}/responses/${status}/content/${escapePointer(mediaType)}/schema`;
          media.schema = prepareSchema(media.schema, at, locations);
        }
      }
    }
  }
  return { paths, components, locations };
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];

/**
 * One schema made fit for ajv's JSON Schema 2020-12 on responses:
 * - names renamed to the spec's (svcName);
 * - OpenAPI 3.0 `nullable` becomes a `null` type;
 * - `writeOnly` properties are not required in a response (OpenAPI's rule);
 * - a `oneOf` with a `discriminator` validates against the one branch its mapping names, so a
 *   difference is reported inside that branch rather than as "matches none of 47 branches".
 */
function prepareSchema(schema: Json, at: string, locations: WeakMap<object, string>): Json {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const prepared = preparedObject(schema, at, locations);
  if (!locations.has(prepared)) locations.set(prepared, at);
  return prepared;
}

function preparedObject(schema: JsonObject, at: string, locations: WeakMap<object, string>): JsonObject {
  const s: JsonObject = { ...schema };
  for (const key of SCHEMA_MAPS) {
    const map = s[key];
    if (map && typeof map === 'object' && !Array.isArray(map)) {
      s[key] = Object.fromEntries(
        Object.entries(map).map(([name, sub]) => [
          key === 'properties' ? svcName(name) : name,
          prepareSchema(sub, `${at}/${key}/${escapePointer(name)}`, locations),
        ]),
      );
    }
  }
  for (const key of SCHEMA_VALUES) if (key in s) s[key] = prepareSchema(s[key], `${at}/${key}`, locations);
  for (const key of SCHEMA_LISTS) {
    const list = s[key];
    if (Array.isArray(list)) s[key] = list.map((sub, i) => prepareSchema(sub, `${at}/${key}/${i}`, locations));
  }
  if (Array.isArray(s.required)) {
    const properties = (s.properties ?? {}) as Record<string, JsonObject>;
    s.required = s.required.map((name) => svcName(String(name))).filter((name) => properties[name]?.writeOnly !== true);
  }
  if (Array.isArray(s.enum)) s.enum = s.enum.map(renamedValue);
  if ('const' in s) s.const = renamedValue(s.const);
  if (s.nullable === true) return nullable(s);
  if (s.discriminator && Array.isArray(s.oneOf)) return discriminated(s, at, locations);
  return s;
}

function renamedValue(value: Json): Json {
  return typeof value === 'string' ? svcName(value) : value;
}

function nullable(s: JsonObject): JsonObject {
  const { nullable: _, ...rest } = s;
  if (typeof rest.type === 'string') {
    return { ...rest, type: [rest.type, 'null'], ...(Array.isArray(rest.enum) ? { enum: [...rest.enum, null] } : {}) };
  }
  return { anyOf: [rest, { type: 'null' }] };
}

/**
 * `oneOf` + `discriminator.mapping` as "the branch the discriminator value names"; a value the
 * mapping lacks is one difference at the discriminator property.
 */
function discriminated(s: JsonObject, at: string, locations: WeakMap<object, string>): JsonObject {
  const { discriminator, oneOf: _branches, ...rest } = s;
  const { propertyName, mapping } = discriminator as { propertyName: string; mapping?: Record<string, string> };
  if (!mapping) return s;
  const property = svcName(propertyName);
  const values = Object.keys(mapping).map(svcName);
  const known: JsonObject = { enum: values };
  const unknown: JsonObject = { type: 'object', required: [property], properties: { [property]: known } };
  locations.set(known, `${at}/discriminator`);
  locations.set(unknown, `${at}/discriminator`);
  return {
    ...rest,
    if: { type: 'object', required: [property], properties: { [property]: { enum: values } } },
    then: { allOf: Object.entries(mapping).map(([value, ref]) => ({ if: { properties: { [property]: { const: svcName(value) } } }, then: { $ref: ref } })) },
    else: unknown,
  };
}
