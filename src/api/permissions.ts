/**
 * What an API token may do (the reference's Permission): VIEW reads everything; TRANSACT moves
 * money; MANAGE changes the platform's configuration, its tokens, customers and the rest of its
 * set-up. A token holds any subset; a route needs exactly one of them.
 */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The routes that move money (or decide a payment) and so need TRANSACT rather than MANAGE, as
 * the reference requires for creating and executing quotes. Express paths, by method.
 */
const TRANSACT_ROUTES = new Set([
  'post /quotes',
  'post /quotes/:quoteId/execute',
  'post /transfer-out',
  'post /transfer-in',
  'post /transactions/:transactionId/confirm',
  'post /transactions/:transactionId/cancel',
  'post /sandbox/send',
  'post /sandbox/uma/receive',
  'post /sandbox/internal-accounts/:accountId/fund',
]);

/** POSTs that only compute an answer and change nothing. */
const VIEW_WRITES = new Set(['post /crypto/estimate-withdrawal-fee']);

/**
 * The permission a route needs: reads VIEW; money movement TRANSACT; every other write MANAGE.
 * A route may name its own (RouteSpec.permission).
 */
export function requiredPermission(method: string, path: string, declared?: Permission): Permission {
  if (declared) return declared;
  if (method === 'get' || VIEW_WRITES.has(`${method} ${path}`)) return 'VIEW';
  return TRANSACT_ROUTES.has(`${method} ${path}`) ? 'TRANSACT' : 'MANAGE';
}
