import type { Permission } from '../contexts/platforms/domain/permissions';

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
