import type { Environment } from '../entities/ApiToken';
import type { Permission } from '../domain/permissions';

/** Who is calling: resolved from the request's credentials on every authenticated request. */
export interface Caller {
  platformId: string;
  /** The credential's id: an API token, an agent's access token, or a device code being redeemed (the rate limit's key). */
  tokenId: string;
  environment: Environment;
  /** What the token may do (domain/permissions.ts); checked by mountRoute before the route runs. None for agents. */
  permissions: readonly Permission[];
  /** Set when an agent's bearer token authenticated the request (`/agents/me/…`): read fresh on every request. */
  agent?: { agentId: string; customerId: string; isPaused: boolean; permissions: readonly string[] };
  /** Set on a device-code redemption, whose credential is the code itself: the code's row id. */
  deviceCodeId?: string;
}
