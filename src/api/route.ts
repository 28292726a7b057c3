import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response, Router } from 'express';
import { DomainError, type FieldError } from '../domain/errors';
import { bodyLimitOf, receiveBody } from './body-limits';
import type { ApiDeps, Caller } from './context';
import { sendJson } from './http';
import { checkIdempotencyKey, withIdempotency } from './idempotency';
import { receiveMultipart, type MultipartOptions, type UploadedFile } from './multipart';
import { registry, z } from './openapi-registry';
import { errorResponses, ID_PARAMS } from './schemas/common';
import { declaredKeys, looksLikeId, nulCharacterErrors, unknownQueryErrors } from './input-guards';
import { fieldErrors } from '../schemas/field-errors';
import { agentRefusal, requiredPermission, type Permission } from './permissions';
import { credentialKindOf } from './credential-zones';
import { routePattern } from './route-match';
import type { Reply } from './route-reply';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  em: EntityManager;
  deps: ApiDeps;
  req: Request;
  idempotencyKey?: string;
  /** The uploaded file of a multipart route. */
  file?: UploadedFile;
}

export type { Reply };

export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: Method;
  /** Express-style path below the versioned base, e.g. `/customers/:customerId`. */
  path: string;
  operationId: string;
  /** A short name, as the reference's sidebar shows its operations ("Create a transfer quote"). */
  summary: string;
  /** What the operation does, in a sentence or two. */
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /**
   * Accepts an Idempotency-Key header (spec §4.2); `'required'` refuses a request without one (400,
   * field `Idempotency-Key`). Both keep the request's answer in the HTTP idempotency record.
   * `'workflow'`: a workflow holds the answer, so no record is kept: the handler passes the key
   * on as the workflow's update id, and Temporal answers a repeat with the first outcome.
   */
  idempotent?: boolean | 'required' | 'workflow';
  /** The answer holds a secret shown once: its stored copy for Idempotency-Key replays is encrypted. */
  sealedReplay?: boolean;
  /** Request headers to document besides Idempotency-Key (e.g. walletSignatureHeaders). */
  headers?: z.ZodObject;
  /** The token permission the route needs; by default reads VIEW, money movement TRANSACT, other writes MANAGE (src/api/permissions.ts). */
  permission?: Permission;
  /**
   * The credential the route takes when it is not the platform's (src/api/credential-zones.ts
   * decides it by path; mounting checks that the route agrees): an agent's bearer token, or the
   * device code being redeemed.
   */
  credential?: 'agent' | 'device-code';
  /** An agent route's policy permission (AgentPermission); a paused agent is refused every write. */
  agentPermission?: string;
  /** Refuses production tokens (marked `x-sandbox-only` in the OpenAPI document). */
  sandboxOnly?: boolean;
  /**
   * The largest request body accepted, in bytes; larger ones are 413 PAYLOAD_TOO_LARGE before
   * they are read. Default: JSON_BODY_LIMIT_BYTES, or for a multipart route its file plus form.
   */
  bodyLimitBytes?: number;
  /** Kept for older clients (spec §9): answered with a `Deprecation` header, marked in the OpenAPI document. */
  deprecated?: { successor: string };
  /**
   * Field checks that need stored data (the platform's currencies, the resource being changed).
   * They get the raw input and run even when the schemas fail, so that one response lists every
   * invalid field; they report only what they can judge, and may throw (e.g. 404).
   */
  check?: (ctx: { params: Record<string, string>; body: unknown; caller: Caller; em: EntityManager; deps: ApiDeps }) => Promise<FieldError[]>;
  /**
   * A multipart/form-data route: `body` validates the text fields, `checkFile` the single file
   * (its problems are reported together with the fields'), `schema` documents the whole form.
   */
  multipart?: MultipartOptions & { schema: z.ZodType; checkFile: (file: UploadedFile | undefined) => FieldError[] };
  handler: (ctx: HandlerContext<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<Reply>;
}

/** Every route registered, for 405 detection and the OpenAPI document. */
export const registeredRoutes: { method: Method; path: string; idParams: boolean }[] = [];

/** Whether this route's path, with these parameter values, is the path of a registered route that reads them literally. */
function isPathOfAnotherRoute(path: string, params: Record<string, string | string[]>): boolean {
  const concrete = path.replace(/:(\w+)/g, (_m, name: string) => String(params[name] ?? '').replace(/\//g, '%2F'));
  return registeredRoutes.some((route) => routePattern(route).test(concrete));
}

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(spec: RouteSpec<P, Q, B>): RouteSpec<P, Q, B> {
  return spec;
}

/** Mounts a route: documents it, authenticates (done by the router), validates, runs it. */
export function mountRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(router: Router, deps: ApiDeps, spec: RouteSpec<P, Q, B>): void {
  const credential = spec.credential ?? 'platform';
  if (credentialKindOf(spec.method, spec.path.replace(/:\w+/g, 'x')) !== credential) {
    throw new Error(
      `${spec.method.toUpperCase()} ${spec.path} declares ${credential} credentials, but its path takes ${credentialKindOf(spec.method, spec.path)} ones`,
    );
  }
  document(spec);
  const declaredQuery = declaredKeys(spec.query);
  const idParams = !!spec.params && ID_PARAMS.has(spec.params);
  const permission = requiredPermission(spec.method, spec.permission);
  const pathGuard = (req: Request, _res: Response, next: NextFunction) => {
    const nulInPath = nulCharacterErrors(req.params, '');
    if (nulInPath.length > 0) throw DomainError.invalidInput(nulInPath);
    // A value that is not an id may be a literal segment of another route (`/customers/external-accounts`
    // under `/customers/:customerId`): the request (body unread) goes on to it, or to the 405. Else it is
    // this route's, naming nothing: the handler answers it as an unknown id, with the resource's own code.
    const notAnId = idParams && Object.values(req.params).some((value) => typeof value === 'string' && !looksLikeId(value));
    next(notAnId && isPathOfAnotherRoute(spec.path, req.params) ? 'route' : undefined);
  };
  router[spec.method](spec.path, pathGuard, receiveBody(bodyLimitOf(spec), { multipart: !!spec.multipart }), async (req: Request, res: Response) => {
    const caller = res.locals.caller as Caller;
    if (spec.deprecated) {
      res.setHeader('Deprecation', 'true');
      res.setHeader('Link', `<${spec.deprecated.successor}>; rel="successor-version"`);
    }
    // Authentication chose the credential by path; a caller of another kind never runs the route.
    if (credential === 'agent') {
      if (!caller.agent) throw DomainError.unauthorized();
      const refusal = agentRefusal(caller.agent, spec.method, spec.agentPermission);
      if (refusal) throw refusal;
    } else if (credential === 'device-code') {
      if (!caller.deviceCodeId) throw DomainError.unauthorized();
    } else if (caller.agent || caller.deviceCodeId) {
      throw DomainError.unauthorized();
    } else if (!caller.permissions.includes(permission)) {
      throw new DomainError('FORBIDDEN', `This API token lacks the ${permission} permission this operation needs`);
    }
    if (spec.sandboxOnly && caller.environment !== 'SANDBOX') {
      throw new DomainError('FORBIDDEN', 'Sandbox endpoints require a sandbox API token');
    }
    const file = spec.multipart ? await receiveMultipart(req, res, spec.multipart) : undefined;
    const run = async (): Promise<Reply> => {
      const errors: FieldError[] = [
        ...nulCharacterErrors(req.query, ''),
        ...unknownQueryErrors(req.query as Record<string, unknown>, declaredQuery),
        ...nulCharacterErrors(req.body ?? {}, ''),
      ];
      // A NUL would reach PostgreSQL through the checks below: refuse before running them.
      if (errors.length > 0) throw DomainError.invalidInput(errors);
      const parse = <S extends z.ZodType | undefined>(schema: S, value: unknown, prefix?: string) => {
        if (!schema) return undefined;
        const result = schema.safeParse(value, { reportInput: true });
        if (!result.success) {
          errors.push(...fieldErrors(result.error, prefix));
          return undefined;
        }
        return result.data;
      };
      const params = parse(spec.params, req.params);
      const query = parse(spec.query, req.query);
      const body = parse(spec.body, req.body ?? {});
      if (spec.idempotent === 'required' && !req.get('idempotency-key')) {
        errors.push({
          field: 'Idempotency-Key',
          constraint: 'required',
          message: 'this operation needs an Idempotency-Key header: a repeat with the same key is answered with the first result',
        });
      }
      if (spec.multipart) errors.push(...spec.multipart.checkFile(file));
      if (spec.check)
        errors.push(...(await spec.check({ params: req.params as Record<string, string>, body: req.body ?? {}, caller, em: deps.orm.em.fork(), deps })));
      if (errors.length > 0) throw DomainError.invalidFields(errors);
      return spec.handler({
        params: params as z.infer<P>,
        query: query as z.infer<Q>,
        body: body as z.infer<B>,
        caller,
        em: deps.orm.em.fork(),
        deps,
        req,
        idempotencyKey: req.get('idempotency-key') ?? undefined,
        ...(file ? { file } : {}),
      });
    };
    if (spec.idempotent === 'workflow') {
      checkIdempotencyKey(req.get('idempotency-key'));
      const reply = await run();
      sendJson(res, reply.status, reply.body);
    } else if (spec.idempotent) {
      // A multipart body's file is part of the request: another file with the same key is another request.
      const content = file
        ? { fields: req.body ?? {}, file: { field: file.fieldName, name: file.originalName, sha256: createHash('sha256').update(file.bytes).digest('hex') } }
        : (req.body ?? null);
      await withIdempotency(deps, req, res, caller, run, content, { sealed: !!spec.sealedReplay });
    } else {
      const reply = await run();
      sendJson(res, reply.status, reply.body);
    }
  });
}

const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .max(255)
    .optional()
    .openapi({ description: 'Repeating a request with the same key returns the first response without repeating its effect.' }),
});

const requiredIdempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .openapi({ description: 'Required. Repeating a request with the same key returns the first response without repeating its effect.' }),
});

/** The request headers a route documents: its Idempotency-Key, if any, and its own. */
function documentedHeaders(spec: { idempotent?: boolean | 'required' | 'workflow'; headers?: z.ZodObject }): z.ZodObject {
  const idempotency = spec.idempotent ? (spec.idempotent === 'required' ? requiredIdempotencyHeader : idempotencyHeader) : z.object({});
  return spec.headers ? idempotency.extend(spec.headers.shape) : idempotency;
}

const documented = new Set<RouteSpec<never, never, never>>();

/** Adds a route to the OpenAPI registry and the 405 table, once per process. */
function document<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(spec: RouteSpec<P, Q, B>): void {
  if (documented.has(spec as never)) return;
  documented.add(spec as never);
  registeredRoutes.push({ method: spec.method, path: spec.path, idParams: !!spec.params && ID_PARAMS.has(spec.params) });
  registry.registerPath({
    method: spec.method,
    path: openApiPath(spec.path),
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(spec.sandboxOnly ? { 'x-sandbox-only': true } : {}),
    ...(spec.credential === 'agent'
      ? { security: [{ AgentAuth: [] }], ...(spec.agentPermission ? { 'x-agent-permission': spec.agentPermission } : {}) }
      : spec.credential === 'device-code'
        ? { security: [] }
        : { 'x-permission': requiredPermission(spec.method, spec.permission) }),
    request: {
      ...(spec.params ? { params: spec.params as never } : {}),
      ...(spec.query ? { query: spec.query as never } : {}),
      ...(spec.idempotent || spec.headers ? { headers: documentedHeaders(spec) } : {}),
      ...(spec.multipart
        ? { body: { content: { 'multipart/form-data': { schema: spec.multipart.schema } }, required: true } }
        : spec.body
          ? { body: { content: { 'application/json': { schema: spec.body } }, required: true } }
          : {}),
    },
    responses: Object.fromEntries(
      Object.entries(withStandardResponses(spec)).map(([status, r]) => [
        status,
        {
          description: r.description,
          ...(r.headers ? { headers: r.headers } : {}),
          ...(r.schema ? { content: { 'application/json': { schema: r.schema } } } : {}),
        },
      ]),
    ),
  });
}

const retryAfterHeader = z.object({ 'Retry-After': z.string().openapi({ description: 'Whole seconds to wait before trying again', example: '1' }) });

type DocumentedResponse = { description: string; schema?: z.ZodType; headers?: z.ZodObject };

/**
 * The statuses every operation of a kind can answer, declared even when the route does not list
 * them: validation (and unknown query parameters, NUL characters) 400, credentials 401, sandbox
 * endpoints with production tokens 403, unknown ids 404, a reused Idempotency-Key 409, a body
 * over the route's limit 413, a JSON body under another content type 415, the per-token rate
 * limit and authentication lockouts 429, 500.
 */
function withStandardResponses(spec: {
  method: Method;
  credential?: 'agent' | 'device-code';
  agentPermission?: string;
  body?: z.ZodType;
  path: string;
  permission?: Permission;
  idempotent?: boolean | 'required' | 'workflow';
  sandboxOnly?: boolean;
  bodyLimitBytes?: number;
  multipart?: MultipartOptions;
  responses: Record<number, DocumentedResponse>;
}): Record<number, DocumentedResponse> {
  const standard: Record<number, DocumentedResponse> = {
    400: errorResponses[400],
    401: errorResponses[401],
    413: { description: `PAYLOAD_TOO_LARGE: the request body is over ${bodyLimitOf(spec)} bytes`, schema: errorResponses[400].schema },
    429: {
      description: 'RATE_LIMITED: too many requests for this API token, or too many failed authentications; retry after Retry-After seconds',
      schema: errorResponses[400].schema,
      headers: retryAfterHeader,
    },
    500: errorResponses[500],
  };
  if (spec.credential === 'device-code') {
    // The code is the credential: an unknown one is 404; failures count toward the address's lockout (429).
    delete standard[401];
  } else if (spec.credential === 'agent') {
    standard[401] = {
      description: 'UNAUTHORIZED: no valid agent access token (platform credentials are not accepted here)',
      schema: errorResponses[400].schema,
    };
    const refusals = [
      spec.agentPermission ? `the agent's policy lacks ${spec.agentPermission}` : '',
      spec.method === 'get' ? '' : 'the agent is paused',
    ].filter(Boolean);
    if (refusals.length > 0) standard[403] = { description: `FORBIDDEN: ${refusals.join(', or ')}`, schema: errorResponses[400].schema };
  } else {
    standard[403] = {
      description: `FORBIDDEN: the API token lacks the ${requiredPermission(spec.method, spec.permission)} permission${spec.sandboxOnly ? ', or a production token on a sandbox endpoint' : ''}`,
      schema: errorResponses[400].schema,
    };
  }
  if (spec.path.includes(':')) standard[404] = errorResponses[404];
  if (spec.idempotent && spec.idempotent !== 'workflow')
    standard[409] = { description: 'IDEMPOTENCY_KEY_REUSED: the key was used with a different request', schema: errorResponses[400].schema };
  if (spec.body && !spec.multipart)
    standard[415] = { description: 'UNSUPPORTED_MEDIA_TYPE: a body not sent as application/json', schema: errorResponses[400].schema };
  const responses: Record<number, DocumentedResponse> = { ...standard, ...spec.responses };
  const own = spec.responses[429];
  // A route's own 429 (its rule's limit) carries Retry-After too, as every 429 does; the token's limit still applies.
  if (own) responses[429] = { ...own, description: `${own.description}; or ${standard[429]!.description}`, headers: own.headers ?? retryAfterHeader };
  return responses;
}
