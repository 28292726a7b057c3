import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { escapePointer, loadReferenceDocument, type ReferenceDocument } from './reference-document';

/** One way a response differs from the public reference. */
export interface Difference {
  /** The reference operation, e.g. `GET /customers/{customerId}`. */
  operation: string;
  status: number;
  kind: 'status' | 'content-type' | 'schema';
  /** Where in the reference the rule that failed stands, e.g. `#/components/schemas/Error404/properties/code/enum`. */
  schemaPath: string;
  /** Where in the body (JSON pointer; empty for the whole body). */
  instancePath: string;
  message: string;
  /** The offending scalar value (enum, type, pattern … differences), or the missing field's name (`required`). */
  value?: unknown;
}

export interface ObservedResponse {
  method: string;
  /** The request path as sent, base path and query string included. */
  path: string;
  status: number;
  /** Absent when the response has no body. */
  contentType?: string;
  body: unknown;
}

export type Verdict = { outcome: 'checked'; operation: string; differences: Difference[] } | { outcome: 'skipped'; reason: string };

interface Operation {
  method: string;
  template: string;
  segments: (string | null)[];
  literals: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/**
 * Validates response bodies against the public reference's OpenAPI document: maps (method,
 * concrete path, status) to the reference operation and checks the JSON body with the schema of
 * that status. Each schema is compiled once, on first use.
 */
export class ReferenceConformance {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    private readonly doc: ReferenceDocument,
    private readonly basePath = '',
  ) {
    // OpenAPI keywords (example, discriminator leftovers, xml …) are annotations: strict off.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false, discriminator: false });
    addFormats(this.ajv);
    // OpenAPI's numeric formats: the type already says integer or number.
    for (const format of ['int32', 'int64']) this.ajv.addFormat(format, { type: 'number', validate: (n: number) => Number.isInteger(n) });
    for (const format of ['float', 'double']) this.ajv.addFormat(format, { type: 'number', validate: () => true });
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ components: doc.components, paths: doc.paths }, 'reference');
    this.operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => {
          const segments = template.split('/').map((segment) => (/^\{[^}]+\}$/.test(segment) ? null : segment));
          return {
            method,
            template,
            segments,
            literals: segments.filter((s) => s !== null).length,
            responses: (operation.responses ?? {}) as Operation['responses'],
          };
        }),
    );
  }

  static load(basePath = ''): ReferenceConformance {
    return new ReferenceConformance(loadReferenceDocument(), basePath);
  }

  /** The reference operation a request reaches: path templates matched segment by segment, literals first. */
  operationFor(method: string, path: string): Operation | undefined {
    const bare = path.split('?')[0];
    if (!bare.startsWith(`${this.basePath}/`)) return undefined;
    const segments = bare.slice(this.basePath.length).replace(/\/+$/, '').split('/');
    const candidates = this.operations.filter(
      (op) =>
        op.method === method.toLowerCase() &&
        op.segments.length === segments.length &&
        op.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i])),
    );
    return candidates.sort((a, b) => b.literals - a.literals)[0];
  }

  check(response: ObservedResponse): Verdict {
    const op = this.operationFor(response.method, response.path);
    if (!op) return { outcome: 'skipped', reason: `${response.method.toUpperCase()} ${response.path.split('?')[0]} is not in the reference` };
    const operation = `${op.method.toUpperCase()} ${op.template}`;
    const status = response.status;
    const responsesAt = `#/paths/${escapePointer(op.template)}/${op.method}/responses`;
    const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in op.responses);
    if (!statusKey) {
      const statuses = Object.keys(op.responses).join(', ');
      return {
        outcome: 'checked',
        operation,
        differences: [
          {
            operation,
            status,
            kind: 'status',
            schemaPath: `${responsesAt}/${status}`,
            instancePath: '',
            message: `status ${status} is not declared (declared: ${statuses})`,
          },
        ],
      };
    }
    const declaredTypes = Object.keys(op.responses[statusKey].content ?? {});
    const contentDifference = (message: string): Verdict => ({
      outcome: 'checked',
      operation,
      differences: [{ operation, status, kind: 'content-type', schemaPath: `${responsesAt}/${statusKey}/content`, instancePath: '', message }],
    });
    if (!declaredTypes.includes('application/json')) {
      if (response.contentType === undefined || declaredTypes.some((type) => response.contentType!.startsWith(type)))
        return { outcome: 'checked', operation, differences: [] };
      return contentDifference(`a ${response.contentType} body where the reference declares ${declaredTypes.join(', ') || 'no body'}`);
    }
    if (!response.contentType?.startsWith('application/json'))
      return contentDifference(`${response.contentType ?? 'no body'} where the reference declares application/json`);
    const validate = this.validatorFor(`${responsesAt}/${statusKey}/content/application~1json/schema`);
    if (validate(response.body)) return { outcome: 'checked', operation, differences: [] };
    return { outcome: 'checked', operation, differences: (validate.errors ?? []).filter(isReported).map((e) => this.difference(operation, status, e)) };
  }

  /** Problems of a value against one of the reference's component schemas (a webhook body, say); none when it conforms. */
  schemaProblems(schemaName: string, value: unknown): string[] {
    const validate = this.validatorFor(`#/components/schemas/${schemaName}`);
    return validate(value) ? [] : (validate.errors ?? []).filter(isReported).map(describe);
  }

  private validatorFor(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `reference${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private difference(operation: string, status: number, e: ErrorObject): Difference {
    const location = e.parentSchema && this.doc.locations.get(e.parentSchema);
    const schemaPath = location ? `${location}/${e.keyword}` : e.schemaPath.replace(/^reference#/, '#');
    return { operation, status, kind: 'schema', schemaPath, instancePath: e.instancePath, message: describe(e), ...offending(e) };
  }
}

/** What a deviation can name: the missing field of `required`, the value of a scalar rule. */
function offending(e: ErrorObject): { value?: unknown } {
  if (e.keyword === 'required') return { value: (e.params as { missingProperty: string }).missingProperty };
  const scalar = e.data === null || ['string', 'number', 'boolean'].includes(typeof e.data);
  return scalar && SCALAR_RULES.has(e.keyword) ? { value: e.data } : {};
}

const SCALAR_RULES = new Set(['enum', 'const', 'type', 'format', 'pattern', 'maxLength', 'minLength', 'minimum', 'maximum', 'exclusiveMinimum']);

/** `if` errors only say "must match then": the failing branch's own errors say what is wrong. */
function isReported(e: ErrorObject): boolean {
  return e.keyword !== 'if';
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '(body)';
  switch (e.keyword) {
    case 'required':
      return `${at}: required field ${(e.params as { missingProperty: string }).missingProperty} is missing`;
    case 'enum':
      return `${at}: ${JSON.stringify(e.data)} is not one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return `${at}: ${e.message ?? e.keyword}${['type', 'format', 'pattern', 'const'].includes(e.keyword) ? ` (got ${JSON.stringify(e.data)})` : ''}`;
  }
}
