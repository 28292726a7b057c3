import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { AbuseLimits } from '../../config';
import {
  CSRF_HEADER,
  cookieValue,
  DEFAULT_SESSION_POLICY,
  findLiveSession,
  isSafeMethod,
  recordDashboardWrite,
  SESSION_COOKIE,
} from '../../contexts/dashboard';
import { logger } from '../../logger';
import { routeTemplateOf } from '../route-template';
import { authenticateAgentToken } from '../../contexts/agents/services/agent-authentication';
import { deviceCodeCredential } from '../../contexts/agents/services/device-codes';
import { checkCredentials } from '../../contexts/platforms/services/authentication';
import { DomainError } from '../../domain/errors';
import { throttledAddress } from '../../security/client-address';
import { FailureThrottle } from '../../security/failure-throttle';
import type { ApiDeps, Caller } from '../context';
import { credentialKindOf, deviceCodeOfPath } from '../credential-zones';
import { nulCharacterErrors } from '../input-guards';
import { tooManyRequests } from './too-many-requests';

/** Far longer than any token id (`Token:<uuid>`, 42 characters): longer user names are not looked up. */
const MAX_USER_NAME_LENGTH = 128;
// C0 and C1 control characters: a NUL cannot even be sent to PostgreSQL, and no token id has any.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** An agent's access token (`agt_` and 256 bits in base64url); anything else is refused unread. */
const BEARER = /^Bearer\s+(agt_[A-Za-z0-9_-]{43})\s*$/i;
/** A device code as issued (`SVC-AGENT-XXXX-…`), in either case; anything else is no code. */
const DEVICE_CODE = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Every request's credentials, of the kind its path takes (src/api/credential-zones.ts): HTTP
 * Basic with `<token id>:<client secret>` (spec §5.1; the token id may be given without its
 * `Token:` prefix), an agent's bearer token under `/agents/me` (spec §5.2), and on a device-code
 * redemption the code itself. A credential of another kind is a 401. Stored credentials are read
 * on every request (a revoked token — deleted, or its agent deleted — fails at once), secrets
 * checked against their keyed hashes; an unknown id gets the same read, the same hash and the
 * same answer. Any credential problem is the same 401 (an unknown device code: 404, as the
 * reference answers).
 *
 * Failed checks of every kind are counted per client address (`limits`): past the allowance,
 * that address's wrong credentials are answered 429 for a window that doubles with each further
 * failure. The credential is still checked during the window and a right one always goes
 * through — no one's failures lock out a client that knows its credential, not even an attacker
 * behind the same proxy or NAT, nor a platform's agents — and a success does not clear the
 * address's count (else a second platform's own token would reset its guessing). Nothing is
 * counted per token, agent or code. The one exception: a token still stored with the former slow
 * scrypt hash is not checked from an address in its window (its first good check, which
 * re-hashes it, must come from an address not failing).
 */
export function authenticate(deps: ApiDeps, limits: AbuseLimits, now: () => number, failures = authFailureThrottle(limits, now)) {
  const failed = failedCheck(failures);

  const agentCaller = async (req: Request, res: Response): Promise<Caller> => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match) throw DomainError.unauthorized('Invalid or missing agent access token');
    const address = throttledAddress(req.ip);
    const wait = failures.lockedForSeconds(address);
    const found = await authenticateAgentToken(deps.orm.em.fork(), deps.config.masterKey, match[1]!);
    if (!found) return failed(res, address, wait, DomainError.unauthorized('Invalid or missing agent access token'));
    const { agent } = found;
    return {
      platformId: agent.platformId,
      tokenId: found.tokenId,
      environment: agent.environment,
      permissions: [],
      agent: { agentId: agent.id, customerId: agent.customerId, isPaused: agent.isPaused, permissions: found.permissions },
    };
  };

  const deviceCodeCaller = async (req: Request, res: Response): Promise<Caller> => {
    let code: string;
    try {
      code = decodeURIComponent(deviceCodeOfPath(req.path) ?? '');
    } catch {
      code = '';
    }
    // A NUL is refused at the edge on every route (400, naming the field), here too.
    const nul = nulCharacterErrors({ code }, '');
    if (nul.length > 0) throw DomainError.invalidInput(nul);
    // Malformed: no code's, refused without a query and counted nowhere (it guesses nothing).
    if (!DEVICE_CODE.test(code)) throw DomainError.notFound('Device code');
    const address = throttledAddress(req.ip);
    const wait = failures.lockedForSeconds(address);
    const found = await deviceCodeCredential(deps.orm.em.fork(), deps.config.masterKey, code);
    if (!found) return failed(res, address, wait, DomainError.notFound('Device code'));
    return { platformId: found.platformId, tokenId: found.codeId, environment: found.environment, permissions: [], deviceCodeId: found.codeId };
  };

  const platformCaller = async (req: Request, res: Response): Promise<Caller> => {
    const header = req.get('authorization');
    // HTTP Basic wins when both are sent; without it, a dashboard session's cookie stands in for it.
    if (header === undefined) {
      const cookie = cookieValue(req.get('cookie'), SESSION_COOKIE);
      if (cookie !== undefined) return sessionCaller(req, res, cookie);
    }
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!match) throw DomainError.unauthorized();
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    // Token ids contain a colon themselves (`Token:<uuid>`); secrets never do, so split at the last one.
    const colon = decoded.lastIndexOf(':');
    if (colon <= 0) throw DomainError.unauthorized();
    return checkPlatformSecret(deps, failures, req, res, decoded.slice(0, colon), decoded.slice(colon + 1));
  };

  /**
   * A dashboard session's caller: its token as stored now. Every write must carry the session's
   * CSRF token (a cross-site page can make the browser send the cookie, but cannot read the token),
   * else 403 before anything runs; every write is recorded once answered.
   */
  const sessionCaller = async (req: Request, res: Response, cookie: string): Promise<Caller> => {
    const policy = deps.dashboard?.session ?? DEFAULT_SESSION_POLICY;
    const live = await findLiveSession(deps.orm.em.fork(), cookie, now(), policy);
    if (!live) throw DomainError.unauthorized('The dashboard session is over or unknown; sign in again');
    if (!isSafeMethod(req.method)) {
      if (!sameSecret(req.get(CSRF_HEADER) ?? '', live.session.csrfToken)) {
        throw new DomainError('FORBIDDEN', 'A write made with a dashboard session needs the X-CSRF-Token header the session was given');
      }
      res.on('finish', () => {
        const entry = {
          sessionId: live.session.id,
          tokenId: live.caller.tokenId,
          platformId: live.caller.platformId,
          method: req.method,
          path: routeTemplateOf(req, res),
          status: res.statusCode,
          at: new Date(now()),
        };
        recordDashboardWrite(deps.orm.em.fork(), entry).catch((err: unknown) => logger.error({ err, ...entry }, 'could not record a dashboard write'));
      });
    }
    res.locals.dashboardSessionId = live.session.id;
    return live.caller;
  };

  const callers = { platform: platformCaller, agent: agentCaller, 'device-code': deviceCodeCaller };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals.caller = (await callers[credentialKindOf(req.method, req.path)](req, res)) satisfies Caller;
    next();
  };
}

/** The per-address count of failed authentications (`limits`), shared by every credential check of one app. */
export function authFailureThrottle(limits: AbuseLimits, now: () => number): FailureThrottle {
  return new FailureThrottle(
    {
      failuresBeforeLockout: limits.authFailuresBeforeLockout,
      firstLockoutMs: limits.authLockoutSeconds * 1000,
      maxLockoutMs: limits.authLockoutMaxSeconds * 1000,
    },
    now,
  );
}

/** A failed check of a well-formed credential: counted, and answered 429 inside the address's window. */
function failedCheck(failures: FailureThrottle) {
  return (res: Response, address: string, wait: number, refusal: DomainError): never => {
    // Decided after the same read and hash for every credential: the answer says nothing of which exist.
    if (wait > 0) throw tooManyRequests(res, wait, 'Too many failed authentications from this address');
    failures.fail(address);
    throw refusal;
  };
}

/**
 * A platform token's id and secret (HTTP Basic, or a dashboard sign-in), checked and counted as
 * every credential is: a wrong one counts toward the address's lockout (429 inside it), a right
 * one always goes through.
 */
export async function checkPlatformSecret(
  deps: ApiDeps,
  failures: FailureThrottle,
  req: Request,
  res: Response,
  userName: string,
  secret: string,
): Promise<Caller> {
  // Malformed, so no token's: refused without a query, and counted nowhere (it guesses nothing).
  if (userName.length === 0 || userName.length > MAX_USER_NAME_LENGTH || CONTROL_CHARACTERS.test(userName)) throw DomainError.unauthorized();
  // Clients whose `user:password` option cannot hold a colon send the id without its prefix.
  const tokenId = userName.startsWith('Token:') ? userName : `Token:${userName}`;
  const address = throttledAddress(req.ip);
  const wait = failures.lockedForSeconds(address);
  const checked = await checkCredentials(deps.orm.em.fork(), deps.config.masterKey, tokenId, secret, { slowCheckAllowed: wait === 0 });
  if (!('token' in checked)) return failedCheck(failures)(res, address, wait, DomainError.unauthorized());
  const { token } = checked;
  return { platformId: token.platformId, tokenId: token.id, environment: token.environment, permissions: token.permissions };
}

/** Compares a presented token with the stored one in constant time. */
function sameSecret(presented: string, stored: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
