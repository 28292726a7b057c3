/**
 * Operations of the public reference this service does not offer yet (reference paths). Each
 * answers 501 NOT_IMPLEMENTED with the §7 body, after authentication like any operation, instead
 * of "No route": a client built on the reference learns that the operation exists but is not
 * available here. They are left out of openapi.json, which documents what the service does.
 * test/api/route-fallbacks.test.ts diffs the reference against the mounted routes and this list,
 * so an operation built later must leave it, and one the reference adds must join it.
 */
export const UNBUILT_OPERATIONS: readonly string[] = [
  // Strong customer authentication (SCA) factors and logins
  'GET /sca/factors',
  'POST /sca/factors',
  'POST /sca/factors/confirm',
  'DELETE /sca/factors/{credentialId}',
  'POST /sca/login/start',
  'POST /sca/login/complete',
  'POST /sca/record-event',
  'POST /sca/factors/reset',
  'GET /sca/factors/reset/{resetId}',
  'POST /sca/factors/reset/{resetId}/complete',
  // Trusted beneficiaries
  'POST /customers/external-accounts/{externalAccountId}/trust',
  'POST /customers/external-accounts/{externalAccountId}/trust/confirm',
  'POST /customers/external-accounts/{externalAccountId}/untrust',
  'POST /customers/external-accounts/{externalAccountId}/untrust/confirm',
  // Quote authorization (SCA challenge)
  'POST /quotes/{quoteId}/authorize',
  'POST /quotes/{quoteId}/authorize/resend',
  // Platform approval of transactions
  'POST /transactions/{transactionId}/approve',
  'POST /transactions/{transactionId}/reject',
  // Internal-account changes and exports
  'PATCH /internal-accounts/{id}',
  'POST /internal-accounts/{id}/export',
  // Embedded-wallet authentication: credentials, sessions, delegated keys
  'POST /auth/credentials',
  'GET /auth/credentials',
  'DELETE /auth/credentials/{id}',
  'POST /auth/credentials/{id}/verify',
  'POST /auth/credentials/{id}/challenge',
  'GET /auth/sessions',
  'DELETE /auth/sessions/{id}',
  'POST /auth/sessions/{id}/refresh',
  'POST /auth/delegated-keys',
  'GET /auth/delegated-keys',
  'GET /auth/delegated-keys/{id}',
  'DELETE /auth/delegated-keys/{id}',
  // Agents: the money-moving operations (quotes, their execution, transfers) come with policy enforcement and approvals
  'POST /agents/me/quotes',
  'POST /agents/me/quotes/{quoteId}/execute',
  'POST /agents/me/transfer-in',
  'POST /agents/me/transfer-out',
];
