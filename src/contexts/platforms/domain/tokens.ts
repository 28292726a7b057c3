import type { Permission } from './permissions';
import { DomainError } from '../../../domain/errors';

/**
 * The Basic user name a client sends beside its secret: the token id without its `Token:` prefix
 * (authentication accepts either form), for clients whose user-name option cannot hold a colon.
 */
export function clientIdOf(tokenId: string): string {
  return tokenId.slice(tokenId.indexOf(':') + 1);
}

/**
 * A token may grant only what it holds itself: a MANAGE token without TRANSACT cannot mint a
 * token that moves money.
 */
export function assertMayGrant(held: readonly Permission[], requested: readonly Permission[]): void {
  const beyond = requested.filter((p) => !held.includes(p));
  if (beyond.length > 0) throw new DomainError('FORBIDDEN', `An API token cannot grant permissions it does not hold: ${beyond.join(', ')}`);
}

/**
 * A platform always keeps one token: deleting its last one would lock it out of the API for good
 * (tokens are made only through the API or by the operator). The caller's own token exists, so
 * this only refuses a token deleting itself while it is the platform's only one.
 */
export function assertNotLastToken(tokensOfPlatform: number): void {
  if (tokensOfPlatform <= 1) {
    throw DomainError.invalidInput(
      [{ field: 'tokenId', constraint: 'lastToken', message: "the platform's last API token cannot be deleted; create another one first" }],
      "The platform's last API token cannot be deleted",
    );
  }
}
