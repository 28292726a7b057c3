/**
 * What an API token may do (the reference's Permission): VIEW reads everything; TRANSACT moves
 * money; MANAGE changes the platform's configuration, its tokens, customers and the rest of its
 * set-up. A token holds any subset; a route needs exactly one of them.
 */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];
