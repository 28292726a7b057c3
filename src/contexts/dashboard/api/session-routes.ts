import express, { type Request, type Response, type Router } from 'express';
import type { ApiDeps } from '../../../api/context';
import { receiveBody } from '../../../api/body-limits';
import { sendJson } from '../../../api/http';
import { checkPlatformSecret } from '../../../api/middleware/auth';
import { registry, z } from '../../../api/openapi-registry';
import { errorResponses } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import type { FailureThrottle } from '../../../security/failure-throttle';
import { fieldErrors } from '../../../schemas/field-errors';
import { cookieValue, CSRF_HEADER, DEFAULT_SESSION_POLICY, SESSION_COOKIE } from '../domain/session-policy';
import { endSession, findLiveSession, openSession, sessionView, type LiveSession } from '../services/sessions';

/** What the session routes share with the API's authentication: its per-address failure count and clock. */
export interface SessionRouterShared {
  authFailures: FailureThrottle;
  now: () => number;
}

const SESSION_PATH = '/dashboard/session';

const SignInSchema = z
  .object({
    clientId: z.string().min(1).max(128).openapi({ description: "The API token's id (with or without its `Token:` prefix), as for HTTP Basic" }),
    clientSecret: z.string().min(1).max(512).openapi({ description: "The token's client secret; checked, never stored" }),
  })
  .strict()
  .openapi('DashboardSignInRequest');

const DashboardSessionSchema = z
  .object({
    csrfToken: z.string().openapi({ description: 'Send it as X-CSRF-Token on every request other than GET/HEAD made with the session cookie' }),
    platformId: z.string(),
    tokenId: z.string(),
    environment: z.enum(['SANDBOX', 'PRODUCTION']),
    permissions: z.array(z.enum(['VIEW', 'TRANSACT', 'MANAGE'])).openapi({ description: "The token's permissions as stored now" }),
    expiresAt: z.iso.datetime().openapi({ description: 'The absolute end of the session' }),
    idleExpiresAt: z.iso.datetime().openapi({ description: 'When the session ends unless another request comes first' }),
    temporalUiUrl: z.string().nullable().openapi({ description: "Temporal UI's address, for links to a payment's workflows; null when none is known" }),
    temporalNamespace: z.string(),
  })
  .openapi('DashboardSession');

const sessionCookieHeader = z.object({
  'Set-Cookie': z.string().openapi({ description: `${SESSION_COOKIE}=<opaque>; HttpOnly; SameSite=Strict; Path=/ (Secure over https)` }),
});

registry.registerPath({
  method: 'post',
  path: SESSION_PATH,
  operationId: 'createDashboardSession',
  summary: 'Sign in to the dashboard',
  description:
    "Exchanges an API token's id and secret for a dashboard session: an HttpOnly, SameSite=Strict cookie that stands in for HTTP Basic on every operation. Beyond the public reference. Failures count toward the same per-address lockout as HTTP Basic.",
  tags: ['Dashboard'],
  security: [],
  request: { body: { content: { 'application/json': { schema: SignInSchema } }, required: true } },
  responses: {
    201: { description: 'Signed in', headers: sessionCookieHeader, content: { 'application/json': { schema: DashboardSessionSchema } } },
    400: { description: errorResponses[400].description, content: { 'application/json': { schema: errorResponses[400].schema } } },
    401: { description: 'UNAUTHORIZED: unknown token or wrong secret', content: { 'application/json': { schema: errorResponses[400].schema } } },
    429: {
      description: 'RATE_LIMITED: too many failed authentications from this address',
      content: { 'application/json': { schema: errorResponses[400].schema } },
    },
  },
});
registry.registerPath({
  method: 'get',
  path: SESSION_PATH,
  operationId: 'getDashboardSession',
  summary: 'Get the dashboard session',
  description: 'The session the cookie names (its idle timer restarts). Beyond the public reference.',
  tags: ['Dashboard'],
  security: [],
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: DashboardSessionSchema } } },
    401: { description: 'UNAUTHORIZED: no session, or it is over', content: { 'application/json': { schema: errorResponses[400].schema } } },
  },
});
registry.registerPath({
  method: 'delete',
  path: SESSION_PATH,
  operationId: 'deleteDashboardSession',
  summary: 'Sign out of the dashboard',
  description: 'Ends the session server-side and clears its cookie; needs X-CSRF-Token. Beyond the public reference.',
  tags: ['Dashboard'],
  security: [],
  request: { headers: z.object({ 'X-CSRF-Token': z.string() }) },
  responses: {
    204: { description: 'Signed out' },
    401: { description: 'UNAUTHORIZED: no session, or it is over', content: { 'application/json': { schema: errorResponses[400].schema } } },
    403: { description: 'FORBIDDEN: X-CSRF-Token missing or wrong', content: { 'application/json': { schema: errorResponses[400].schema } } },
  },
});

/**
 * The dashboard's sign-in, session and sign-out (below the API base, before partner
 * authentication: the sign-in is itself a credential check). The cookie is HttpOnly (no script
 * reads it), SameSite=Strict (no other site's page sends it), Path=/ and Secure over https.
 */
export function sessionRouter(deps: ApiDeps, shared: SessionRouterShared): Router {
  const router = express.Router();
  const policy = deps.dashboard?.session ?? DEFAULT_SESSION_POLICY;
  const temporal = { uiUrl: deps.dashboard?.temporalUiUrl ?? null, namespace: deps.dashboard?.temporalNamespace ?? 'default' };
  const secure = (req: Request) => req.secure || deps.config.publicBaseUrl.startsWith('https:');
  const cookie = (req: Request, value: string, maxAgeSeconds?: number) =>
    [
      `${SESSION_COOKIE}=${value}`,
      'HttpOnly',
      'SameSite=Strict',
      'Path=/',
      ...(maxAgeSeconds !== undefined ? [`Max-Age=${maxAgeSeconds}`] : []),
      ...(secure(req) ? ['Secure'] : []),
    ].join('; ');
  const live = async (req: Request): Promise<LiveSession> => {
    const value = cookieValue(req.get('cookie'), SESSION_COOKIE);
    const found = value ? await findLiveSession(deps.orm.em.fork(), value, shared.now(), policy) : undefined;
    if (!found) throw DomainError.unauthorized('No dashboard session, or it is over; sign in again');
    return found;
  };

  router.use(SESSION_PATH, (_req: Request, res: Response, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.post(SESSION_PATH, receiveBody(4 * 1024, { multipart: false }), async (req: Request, res: Response) => {
    const parsed = SignInSchema.safeParse(req.body ?? {}, { reportInput: true });
    if (!parsed.success) throw DomainError.invalidFields(fieldErrors(parsed.error));
    const caller = await checkPlatformSecret(deps, shared.authFailures, req, res, parsed.data.clientId, parsed.data.clientSecret);
    const opened = await openSession(deps.orm.em.fork(), caller, shared.now(), policy);
    res.setHeader('Set-Cookie', cookie(req, opened.cookie));
    sendJson(res, 201, sessionView(opened.live, policy, temporal));
  });
  router.get(SESSION_PATH, async (req: Request, res: Response) => {
    sendJson(res, 200, sessionView(await live(req), policy, temporal));
  });
  router.delete(SESSION_PATH, async (req: Request, res: Response) => {
    const session = await live(req);
    if (req.get(CSRF_HEADER) !== session.session.csrfToken)
      throw new DomainError('FORBIDDEN', 'Signing out needs the X-CSRF-Token header the session was given');
    await endSession(deps.orm.em.fork(), session.session.id, shared.now());
    res.setHeader('Set-Cookie', cookie(req, '', 0));
    sendJson(res, 204, undefined);
  });
  return router;
}
