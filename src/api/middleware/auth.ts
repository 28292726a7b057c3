import type { NextFunction, Request, Response } from 'express';
import type { AbuseLimits } from '../../config';
import { checkCredentials } from '../../contexts/platforms/services/authentication';
import { DomainError } from '../../domain/errors';
import { throttledAddress } from '../../security/client-address';
import { FailureThrottle } from '../../security/failure-throttle';
import type { ApiDeps, Caller } from '../context';
import { tooManyRequests } from './too-many-requests';

/** Far longer than any token id (`Token:<uuid>`, 42 characters): longer user names are not looked up. */
const MAX_USER_NAME_LENGTH = 128;
// C0 and C1 control characters: a NUL cannot even be sent to PostgreSQL, and no token id has any.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * HTTP Basic with `<token id>:<client secret>` (spec §5.1); the token id may be given without
 * its `Token:` prefix. The token row is read on every request (a revoked — deleted — token fails
 * at once) and the secret checked against its keyed hash; an unknown id gets the same read, the
 * same hash and the same answer. Any credential problem is the same 401.
 *
 * Failed checks are counted per client address (`limits`): past the allowance, that address's
 * wrong credentials are answered 429 for a window that doubles with each further failure. The
 * secret is still checked during the window and a right one always goes through — no one's
 * failures lock out a client that knows its secret, not even an attacker behind the same proxy or
 * NAT — and a success does not clear the address's count (else a second platform's own token
 * would reset its guessing). Nothing is counted per token. The one exception: a token still
 * stored with the former slow scrypt hash is not checked from an address in its window (its
 * first good check, which re-hashes it, must come from an address not failing).
 */
export function authenticate(deps: ApiDeps, limits: AbuseLimits, now: () => number) {
  const failures = new FailureThrottle(
    {
      failuresBeforeLockout: limits.authFailuresBeforeLockout,
      firstLockoutMs: limits.authLockoutSeconds * 1000,
      maxLockoutMs: limits.authLockoutMaxSeconds * 1000,
    },
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
    // Malformed, so no token's: refused without a query, and counted nowhere (it guesses nothing).
    if (userName.length > MAX_USER_NAME_LENGTH || CONTROL_CHARACTERS.test(userName)) throw DomainError.unauthorized();
    const tokenId = userName.startsWith('Token:') ? userName : `Token:${userName}`;
    const secret = decoded.slice(colon + 1);

    const address = throttledAddress(req.ip);
    const wait = failures.lockedForSeconds(address);
    const checked = await checkCredentials(deps.orm.em.fork(), deps.config.masterKey, tokenId, secret, { slowCheckAllowed: wait === 0 });
    if ('token' in checked) {
      const { token } = checked;
      res.locals.caller = { platformId: token.platformId, tokenId: token.id, environment: token.environment, permissions: token.permissions } satisfies Caller;
      next();
      return;
    }
    // Decided after the same read and hash for every id: the answer says nothing of which ids exist.
    if (wait > 0) throw tooManyRequests(res, wait, 'Too many failed authentications from this address');
    failures.fail(address);
    throw DomainError.unauthorized();
  };
}
