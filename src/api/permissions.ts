import type { Permission } from '../contexts/platforms/domain/permissions';
import { DomainError } from '../domain/errors';
import type { Caller } from './context';

// The permissions themselves belong to the platform's tokens; the API decides which one a route needs.
export { PERMISSIONS, type Permission } from '../contexts/platforms/domain/permissions';

/**
 * The permission a route needs: the one it declares (RouteSpec.permission: TRANSACT on the
 * routes that move money or decide a payment, as the reference requires for creating and
 * executing quotes; VIEW on a POST that only computes), else VIEW for reads and MANAGE for
 * every other write.
 */
export function requiredPermission(method: string, declared?: Permission): Permission {
  return declared ?? (method === 'get' ? 'VIEW' : 'MANAGE');
}

/**
 * Why an agent may not make this request, if it may not: a paused agent initiates nothing (it
 * still reads, so it can see that it is paused), and each operation needs its policy permission.
 */
export function agentRefusal(agent: NonNullable<Caller['agent']>, method: string, permission: string | undefined): DomainError | undefined {
  if (permission && !agent.permissions.includes(permission)) {
    return new DomainError('FORBIDDEN', `The agent's policy lacks the ${permission} permission this operation needs`);
  }
  if (agent.isPaused && method !== 'get') return new DomainError('FORBIDDEN', 'The agent is paused: it may read, but not act');
  return undefined;
}
