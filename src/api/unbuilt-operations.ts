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
  // Embedded-wallet authentication: delegated keys
  'POST /auth/delegated-keys',
  'GET /auth/delegated-keys',
  'GET /auth/delegated-keys/{id}',
  'DELETE /auth/delegated-keys/{id}',
  // Agents
  'POST /agents',
  'GET /agents',
  'GET /agents/approvals',
  'GET /agents/me',
  'GET /agents/{agentId}',
  'PATCH /agents/{agentId}',
  'DELETE /agents/{agentId}',
  'PATCH /agents/{agentId}/policy',
  'POST /agents/{agentId}/device-codes',
  'POST /agents/{agentId}/actions/{actionId}/approve',
  'POST /agents/{agentId}/actions/{actionId}/reject',
  'GET /agents/device-codes/{code}/status',
  'POST /agents/device-codes/{code}/redeem',
  'GET /agents/me/transactions',
  'GET /agents/me/transactions/{transactionId}',
  'POST /agents/me/quotes',
  'GET /agents/me/quotes/{quoteId}',
  'POST /agents/me/quotes/{quoteId}/execute',
  'GET /agents/me/actions',
  'GET /agents/me/actions/{actionId}',
  'POST /agents/me/transfer-in',
  'POST /agents/me/transfer-out',
  'GET /agents/me/internal-accounts',
  'GET /agents/me/external-accounts',
  'POST /agents/me/external-accounts',
  'GET /agents/me/external-accounts/{externalAccountId}',
  'DELETE /agents/me/external-accounts/{externalAccountId}',
];
