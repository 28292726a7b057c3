import express, { type Request, type Response, type Router } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { ApiDeps } from '../../../api/context';
import { receiveBody } from '../../../api/body-limits';
import { sendJson } from '../../../api/http';
import { checkPlatformSecret } from '../../../api/middleware/auth';
import { z } from '../../../api/openapi-registry';
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
  .strict();

/**
 * The dashboard's sign-in, session and sign-out (below the API base, before partner
 * authentication: the sign-in is itself a credential check). Not in the OpenAPI document, whose
 * operations are the mounted routes taking HTTP Basic; docs/operations.md describes them. The
 * cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/
 * and Secure over https.
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
    if (!sameToken(req.get(CSRF_HEADER) ?? '', session.session.csrfToken))
      throw new DomainError('FORBIDDEN', 'Signing out needs the X-CSRF-Token header the session was given');
    await endSession(deps.orm.em.fork(), session.session.id, shared.now());
    res.setHeader('Set-Cookie', cookie(req, '', 0));
    sendJson(res, 204, undefined);
  });
  return router;
}

/** Compares a presented CSRF token with the session's in constant time. */
function sameToken(presented: string, stored: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
