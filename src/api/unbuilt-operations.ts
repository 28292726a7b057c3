/**
 * Operations of the public reference this service does not offer yet (reference paths). Each
 * answers 501 NOT_IMPLEMENTED with the §7 body, after authentication like any operation, instead
 * of "No route": a client built on the reference learns that the operation exists but is not
 * available here. They are left out of openapi.json, which documents what the service does.
 * test/api/route-fallbacks.test.ts diffs the reference against the mounted routes and this list,
 * so an operation built later must leave it, and one the reference adds must join it.
 */
export const UNBUILT_OPERATIONS: readonly string[] = [];
