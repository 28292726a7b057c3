/**
 * What an API token may do (the reference's Permission): VIEW reads everything; TRANSACT moves
 * money; MANAGE changes the platform's configuration, its tokens, customers and the rest of its
 * set-up. A token holds any subset; a route needs exactly one of them.
 */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The permission a route needs: the one it declares (RouteSpec.permission: TRANSACT on the
 * routes that move money or decide a payment, as the reference requires for creating and
 * executing quotes; VIEW on a POST that only computes), else VIEW for reads and MANAGE for
 * every other write.
 */
export function requiredPermission(method: string, declared?: Permission): Permission {
  return declared ?? (method === 'get' ? 'VIEW' : 'MANAGE');
}
