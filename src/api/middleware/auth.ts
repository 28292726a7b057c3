import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { ApiToken } from '../../contexts/platforms/entities';
import { DomainError } from '../../domain/errors';
import { verifySecret } from '../../security/secrets';
import type { ApiDeps, Caller } from '../context';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1_000;

/**
 * HTTP Basic with `<token id>:<client secret>` (spec §5.1); the token id may be given without
 * its `Token:` prefix. Secrets are checked against a
 * slow scrypt hash; a verified pair is remembered briefly under a SHA-256 of the pair so the
 * hash is not recomputed on every request. Any credential problem is the same 401.
 */
export function authenticate(deps: ApiDeps) {
  const verified = new Map<string, { caller: Caller; expiresAt: number }>();

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

    const cacheKey = createHash('sha256').update(decoded).digest('base64');
    const cached = verified.get(cacheKey);
    if (cached && cached.expiresAt > Date.now()) {
      res.locals.caller = cached.caller;
      next();
      return;
    }
    const token = await deps.orm.em.fork().findOne(ApiToken, { id: tokenId });
    if (!token || !(await verifySecret(secret, token.secretHash))) throw DomainError.unauthorized();
    const caller: Caller = { platformId: token.platformId, tokenId: token.id, environment: token.environment };
    if (verified.size >= CACHE_MAX) verified.clear();
    verified.set(cacheKey, { caller, expiresAt: Date.now() + CACHE_TTL_MS });
    res.locals.caller = caller;
    next();
  };
}
