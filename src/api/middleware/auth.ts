import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import type { AbuseLimits } from '../../config';
import { ApiToken } from '../../contexts/platforms/entities';
import { DomainError } from '../../domain/errors';
import { FailureThrottle } from '../../security/failure-throttle';
import { verifySecretOrDecoy } from '../../security/secrets';
import type { ApiDeps, Caller } from '../context';
import { tooManyRequests } from './too-many-requests';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1_000;

/**
 * HTTP Basic with `<token id>:<client secret>` (spec §5.1); the token id may be given without
 * its `Token:` prefix. Secrets are checked against a slow scrypt hash (an unknown id against a
 * decoy of the same cost); a verified pair is remembered briefly under a SHA-256 of the pair so
 * the hash is not recomputed on every request, but the token row is read every time, so a
 * revoked (deleted) token or a changed secret stops working at once. Any credential problem is
 * the same 401.
 *
 * Repeated failures lock out the token id (an unknown id: the caller's address) for a window that
 * doubles with each further failure (`limits`); during it attempts are refused with 429 before
 * any secret is checked, except a pair this process verified in the last minute, so that knowing
 * a token id is not enough to lock out the client using it.
 */
export function authenticate(deps: ApiDeps, limits: AbuseLimits, now: () => number) {
  const verified = new Map<string, { secretHash: string; expiresAt: number }>();
  const failures = new FailureThrottle(
    { failuresBeforeLockout: limits.authFailuresBeforeLockout, firstLockoutMs: limits.authLockoutSeconds * 1000, maxLockoutMs: limits.authLockoutMaxSeconds * 1000 },
    now,
  );

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const header = req.get('authorization') ?? '';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!match) throw DomainError.unauthorized();
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    // Token ids contain a colon themselves (`Token:<uuid>`); secrets never do, so split at the last one.
    const colon = decoded.lastIndexOf(':');
    if (colon <= 0) throw DomainError.unauthorized();
    // Clients whose `user:password` option cannot hold a colon send the id without its prefix.
    const userName = decoded.slice(0, colon);
    const tokenId = userName.startsWith('Token:') ? userName : `Token:${userName}`;
    const secret = decoded.slice(colon + 1);

    const token = await deps.orm.em.fork().findOne(ApiToken, { id: tokenId });
    const accept = () => {
      res.locals.caller = { platformId: token!.platformId, tokenId: token!.id, environment: token!.environment, permissions: token!.permissions } satisfies Caller;
      next();
    };
    // A map lookup by a digest of the pair: its timing says nothing about the secret.
    const cacheKey = createHash('sha256').update(decoded).digest('base64');
    const cached = verified.get(cacheKey);
    if (token && cached && cached.expiresAt > now() && cached.secretHash === token.secretHash) {
      accept();
      return;
    }

    const throttleKey = token ? `token:${token.id}` : `address:${req.ip ?? 'unknown'}`;
    const wait = failures.lockedForSeconds(throttleKey);
    if (wait > 0) throw tooManyRequests(res, wait, 'Too many failed authentications');
    if (!(await verifySecretOrDecoy(secret, token?.secretHash)) || !token) {
      failures.fail(throttleKey);
      throw DomainError.unauthorized();
    }
    failures.succeed(throttleKey);
    if (verified.size >= CACHE_MAX) verified.clear();
    verified.set(cacheKey, { secretHash: token.secretHash, expiresAt: now() + CACHE_TTL_MS });
    accept();
  };
}
