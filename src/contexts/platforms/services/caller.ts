import type { Environment } from '../entities/ApiToken';
import type { Permission } from '../domain/permissions';

/** Who is calling: resolved from the Basic credentials on every authenticated request. */
export interface Caller {
  platformId: string;
  tokenId: string;
  environment: Environment;
  /** What the token may do (domain/permissions.ts); checked by mountRoute before the route runs. */
  permissions: readonly Permission[];
}
