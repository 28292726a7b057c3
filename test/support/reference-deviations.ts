import { HTTP_STATUS } from '../../src/api/error-status';
import { UNBUILT_OPERATIONS } from '../../src/api/unbuilt-operations';
import { ERROR_CODES } from '../../src/domain/errors';
import type { Difference } from './reference-conformance';

/**
 * A difference from the public reference that this service makes on purpose (docs/deviations.md:
 * "Deviations from the public reference" says the same, for readers). Every other difference
 * an API test meets fails that test.
 */
export interface Deviation {
  /** Reference operations, e.g. `GET /customers/{customerId}`; `*` matches any run of characters. */
  operation: string | string[];
  /** Only responses of this status; every status when absent. */
  status?: number;
  /** The reference rule that is not followed (Difference.schemaPath); `*` as in operation. */
  schemaPath: string;
  /** Only these offending values (an error code, a missing field's name …), when the deviation is about values. */
  values?: unknown[];
  reason: string;
}

const ERROR_CODE = (status: number) => `#/components/schemas/Error${status}/properties/code/enum`;
const UNDECLARED = (status: number) => `#/paths/*/responses/${status}`;
/** The spec's STABLECOIN_* codes answered with a status (the service's own list). */
const stablecoinCodes = (status: number) => ERROR_CODES.filter((code) => code.startsWith('STABLECOIN_') && HTTP_STATUS[code] === status);

export const REFERENCE_DEVIATIONS: Deviation[] = [
  {
    operation: ['POST /transactions/{transactionId}/approve', 'POST /transactions/{transactionId}/reject'],
    status: 200,
    schemaPath: '#/components/schemas/IncomingTransaction/*',
    reason: "the same routes decide an outgoing payment an agent's action holds for approval, answered with that (OUTGOING) transaction",
  },
  {
    operation: ['POST /stablecoins', 'POST /stablecoins/{stablecoinId}/*', 'POST /stablecoin-provider-accounts'],
    status: 400,
    schemaPath: ERROR_CODE(400),
    values: stablecoinCodes(400),
    reason: "Spec §7 lists these stablecoin 400 codes; the reference's Error400 enum has only the three provider-account ones",
  },
  {
    operation: ['POST /stablecoins', 'POST /stablecoins/{stablecoinId}/*'],
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: stablecoinCodes(409),
    reason: "Spec §7 lists these stablecoin 409 codes; the reference's Error409 enum does not",
  },
  {
    operation: ['* /stablecoins/{stablecoinId}*', 'GET /stablecoin-operations/{stablecoinOperationId}'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'Error404 has no code for stablecoins, their operations or the external accounts an operation names: they answer NOT_FOUND',
  },
  // Strong Customer Authentication (sca context)
  {
    operation: ['DELETE /sca/factors/{credentialId}', '* /sca/factors/reset/{resetId}*'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: "Error404 has no code for SCA factors or factor resets: an unknown one (or another customer's) answers NOT_FOUND",
  },
  {
    operation: ['POST /sca/login/start', 'POST /sca/factors/reset'],
    status: 501,
    schemaPath: UNDECLARED(501),
    reason:
      'A production server without an SMS provider (SMS_OTP) or a liveness-check provider (resets) answers 501 NOT_IMPLEMENTED and stores nothing, as contact verification does',
  },
  {
    operation: '*',
    status: 503,
    schemaPath: UNDECLARED(503),
    reason:
      "A request whose Temporal calls do not end within its deadline (TEMPORAL_CALL_TIMEOUT_MS: the engine out of reach) answers 503 SERVICE_UNAVAILABLE with Retry-After, the reference's own code for a retryable outage, where it declares 500",
  },
  {
    operation: ['POST /stablecoins', 'POST /stablecoin-provider-accounts'],
    status: 503,
    schemaPath: UNDECLARED(503),
    reason:
      "Linking and registering ask the provider while the request waits: when it is out of reach they answer the reference's own 503 SERVICE_UNAVAILABLE, as mints and burns declare",
  },
  {
    operation: ['POST /stablecoins', 'POST /stablecoins/{stablecoinId}/*', 'POST /stablecoin-provider-accounts'],
    status: 501,
    schemaPath: UNDECLARED(501),
    reason:
      'No stablecoin provider connection ships with this installation: production tokens are answered 501 NOT_IMPLEMENTED (sandbox tokens get the simulated provider), as for cards',
  },
  {
    operation: 'POST /cards',
    status: 409,
    schemaPath: UNDECLARED(409),
    reason: 'Spec §7: the platform live-card cap and one card per cardholder answer 409 CARD_LIMIT_REACHED; the reference declares no 409 on createCard',
  },
  {
    operation: [...UNBUILT_OPERATIONS],
    status: 501,
    schemaPath: UNDECLARED(501),
    reason: 'Operations of the reference not built yet answer 501 NOT_IMPLEMENTED (src/api/unbuilt-operations.ts) rather than "No route"',
  },
  {
    operation: ['POST /cards', 'PATCH /cards/{id}'],
    status: 400,
    schemaPath: ERROR_CODE(400),
    values: ['FUNDING_SOURCE_INELIGIBLE'],
    reason: "createCard and updateCardById document FUNDING_SOURCE_INELIGIBLE for an ineligible funding source; the reference's Error400 enum lacks it",
  },
  {
    operation: 'POST /cards/{id}/reveal',
    status: 409,
    schemaPath: UNDECLARED(409),
    reason:
      "Only an ACTIVE card's details are revealed: a CLOSED card answers 409 CARD_NOT_MUTABLE, a FROZEN one (or one with no number yet) 409 CONFLICT; the reference declares no 409 on revealCard",
  },
  {
    operation: ['* /cards/{id}*', 'POST /sandbox/cards/{id}/simulate/*'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: "Error404 has no code for cards: an unknown card (or another platform's) answers NOT_FOUND",
  },
  {
    operation: 'POST /sandbox/cards/{id}/simulate/*',
    status: 202,
    schemaPath: '#/components/schemas/SandboxCardSimulationResponse*',
    reason:
      'The simulation answers with the card transaction it created or changed (cardTransactionId) and a decline reason, as well as the issuer token: the sandbox has no issuer events webhook to report them',
  },
  {
    operation: '*',
    status: 413,
    schemaPath: UNDECLARED(413),
    reason:
      'Request-size limits per route (docs/operations.md, "Limits and abuse protection"): a body over the route\'s limit is refused with 413 PAYLOAD_TOO_LARGE before it is read; the reference declares no 413',
  },
  {
    operation: '*',
    status: 429,
    schemaPath: UNDECLARED(429),
    reason:
      'The per-token rate limit and the lock-out after repeated authentication failures answer 429 RATE_LIMITED with Retry-After on every operation; the reference declares 429 on some only',
  },
  {
    operation: '*',
    status: 403,
    schemaPath: UNDECLARED(403),
    reason:
      'Token permissions (VIEW, TRANSACT, MANAGE) are enforced on every operation: a token without the one an operation needs is answered 403 FORBIDDEN; the reference declares 403 on few operations',
  },
  {
    operation: '*',
    status: 400,
    schemaPath: UNDECLARED(400),
    reason:
      'Every operation validates its input and answers 400 INVALID_INPUT (unknown query parameters, NUL characters, invalid values) or MISSING_MANDATORY_USER_INFO, also where the reference declares no 400',
  },
  {
    operation: [
      '* /beneficial-owners/{beneficialOwnerId}',
      '* /documents/{documentId}',
      'GET /verifications/{verificationId}',
      '* /customers/external-accounts/{externalAccountId}*',
      '* /platform/external-accounts/{externalAccountId}*',
      'POST /sandbox/internal-accounts/{accountId}/fund',
      'GET /receiver/external-account/{accountId}',
      'POST /crypto/estimate-withdrawal-fee',
    ],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'Error404 has no code for beneficial owners, documents, verifications, external or internal accounts: they answer NOT_FOUND',
  },
  {
    operation: '* /customers/{customerId}',
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'A path segment that is not an id (`<Type>:<uuid>`) is an unknown route, never read as an id',
  },
  {
    operation: '*',
    status: 400,
    schemaPath: ERROR_CODE(400),
    values: ['INSUFFICIENT_FUNDS', 'QUOTE_EXPIRED', 'QUOTE_RATE_UNAVAILABLE'],
    reason: 'Spec §7 lists these 400 codes; the reference’s Error400 lacks them',
  },
  {
    operation: '*',
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: ['DUPLICATE_EXTERNAL_ACCOUNT', 'BANK_ACCOUNT_VALIDATION_PENDING', 'DOCUMENT_ALREADY_EXISTS', 'OPERATION_IN_PROGRESS'],
    reason: 'Spec §7 lists these 409 codes; the reference’s Error409 lacks them',
  },
  {
    operation: ['POST /quotes', 'POST /transfer-out'],
    status: 409,
    schemaPath: UNDECLARED(409),
    reason: 'Spec §4.1: using a US account still being validated is 409 BANK_ACCOUNT_VALIDATION_PENDING',
  },
  {
    operation: ['POST /sandbox/internal-accounts/{accountId}/fund', 'POST /customers/bulk/csv'],
    status: 409,
    schemaPath: UNDECLARED(409),
    reason: 'Every idempotent operation answers 409 IDEMPOTENCY_KEY_REUSED to a different request with a used Idempotency-Key',
  },
  {
    operation: 'POST /sandbox/internal-accounts/{accountId}/fund',
    status: 410,
    schemaPath: UNDECLARED(410),
    reason: "Funding a deleted customer's account is the reference's own 410 CUSTOMER_DELETED, as on every money-moving route",
  },
  {
    operation: 'POST /customers/external-accounts',
    status: 404,
    schemaPath: UNDECLARED(404),
    reason: 'An unknown customerId is 404 USER_NOT_FOUND, the reference’s code for an unknown customer, as on every customer route',
  },
  {
    operation: 'POST /quotes',
    status: 404,
    schemaPath: UNDECLARED(404),
    reason:
      "An unknown source.customerId (real-time funding, or a platform account spent on a customer's behalf) is 404 USER_NOT_FOUND, the reference's code for an unknown customer",
  },
  {
    operation: 'POST /sandbox/send',
    status: 409,
    schemaPath: UNDECLARED(409),
    reason: 'A quote that is not REALTIME_FUNDING (pending or executed), or no longer payable, is 409 CONFLICT: it is executed, not paid into',
  },
  {
    operation: 'PATCH /customers/{customerId}',
    status: 400,
    schemaPath: ERROR_CODE(400),
    values: ['AUTH_CREDENTIAL_VERIFICATION_REQUIRED', 'AUTH_CREDENTIAL_VERIFICATION_EXPIRED'],
    reason:
      "Spec §7 lists these 400 codes for wallet-tied contact changes (no session of the wallet could sign the change); the reference's Error400 enum does not",
  },
  {
    operation: 'PATCH /customers/{customerId}',
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: ['SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS', 'SMS_OTP_CREDENTIAL_SET_CHANGED', 'OPERATION_IN_PROGRESS'],
    reason:
      "Spec §7 lists the phone twins of EMAIL_OTP_EMAIL_ALREADY_EXISTS and EMAIL_OTP_CREDENTIAL_SET_CHANGED, and OPERATION_IN_PROGRESS; the reference's Error409 enum has only the email ones",
  },
  {
    operation: 'POST /quotes/{quoteId}/execute',
    status: 202,
    schemaPath: UNDECLARED(202),
    reason:
      'EMBEDDED_WALLET source without a stamp: instead of 401 WALLET_SIGNATURE_MISSING the payment is held and the call answered with a signed request (202), whose signed retry executes it, as the other signed operations do',
  },
  {
    operation: ['POST /beneficial-owners', 'GET /beneficial-owners', '* /beneficial-owners/{beneficialOwnerId}'],
    schemaPath: '#/components/schemas/BeneficialOwnerPersonalInfo/required',
    values: ['identifier'],
    reason: 'Spec §2.7: identification numbers are write-only, stored sealed and never returned',
  },
  {
    operation: '* /platform/external-accounts*',
    schemaPath: '#/components/schemas/ExternalAccount/allOf/0/properties/customerId/type',
    values: [null],
    reason: 'A platform-owned account has customerId null, as spec §2.4 and the reference’s own description say (its type omits null)',
  },
  {
    operation: ['* /customers/external-accounts*', '* /platform/external-accounts*'],
    schemaPath: '#/components/schemas/ExternalAccountInfoOneOf/discriminator/enum',
    values: ['ILS_ACCOUNT', 'TRY_ACCOUNT', 'ARBITRUM_WALLET'],
    reason: 'Account types in the spec’s list that the reference lacks, shaped like their neighbours',
  },
  {
    operation: '*',
    schemaPath: '#/components/schemas/CryptoNetwork/enum',
    values: ['ARBITRUM', 'LIGHTNING'],
    reason: 'A payout to an Arbitrum wallet (a wallet type the reference lacks) or over Lightning names its network in onChainTransaction',
  },
  {
    operation: 'GET /exchange-rates',
    schemaPath: '#/components/schemas/PaymentRail/enum',
    values: ['LIGHTNING', 'SOLANA', 'TRON', 'SPARK'],
    reason: 'Crypto destinations name their network: the reference’s PaymentRail has no crypto rails and the field is required',
  },
  {
    operation: ['POST /customers/{customerId}/verify-email', 'POST /customers/{customerId}/verify-phone'],
    status: 501,
    schemaPath: UNDECLARED(501),
    reason:
      'A production server without an email or SMS delivery provider cannot send codes: 501 NOT_IMPLEMENTED says so, where the reference would answer 500',
  },
  {
    operation: 'PATCH /config',
    status: 409,
    schemaPath: UNDECLARED(409),
    reason:
      'A UMA domain belongs to one platform: another platform’s domain answers 409 UMA_DOMAIN_TAKEN, and leaving a domain that customers’ addresses still use answers 409 UMA_DOMAIN_IN_USE',
  },
  {
    operation: 'PATCH /config',
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: ['UMA_DOMAIN_TAKEN', 'UMA_DOMAIN_IN_USE'],
    reason: 'Codes of the service’s own for UMA domain ownership; the reference has none',
  },
  // Embedded-wallet export, privacy toggle and delegated keys (wallet-keys)
  {
    operation: ['PATCH /internal-accounts/{id}', 'POST /internal-accounts/{id}/export'],
    status: 409,
    schemaPath: UNDECLARED(409),
    reason:
      'Spec §7: an account that is no embedded wallet is 409 WALLET_NOT_PROVISIONED, a change while another waits for its signature 409 OPERATION_IN_PROGRESS',
  },
  {
    operation: ['PATCH /internal-accounts/{id}', 'POST /internal-accounts/{id}/export', 'POST /auth/delegated-keys'],
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: ['WALLET_NOT_PROVISIONED', 'OPERATION_IN_PROGRESS'],
    reason: "Spec §7 lists these 409 codes; the reference's Error409 enum does not",
  },
  {
    operation: ['PATCH /internal-accounts/{id}', 'POST /internal-accounts/{id}/export', '* /auth/delegated-keys*'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'Error404 has no code for internal accounts, cards or delegated keys: an unknown one (or another platform’s) answers NOT_FOUND',
  },
  // Embedded-wallet authentication (wallet-auth)
  {
    operation: ['* /auth/credentials*', '* /auth/sessions*'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'Error404 has no code for credentials, sessions or internal accounts: an unknown one (or another platform’s) answers NOT_FOUND',
  },
  {
    operation: ['POST /auth/credentials', 'DELETE /auth/credentials/{id}', 'POST /auth/credentials/{id}/verify'],
    status: 409,
    schemaPath: UNDECLARED(409),
    reason:
      'Spec §7: OPERATION_IN_PROGRESS (another credential change waits for its signature), WALLET_NOT_PROVISIONED (no embedded wallet), EMAIL_OTP_/SMS_OTP_CREDENTIAL_SET_CHANGED (the credentials changed after the challenge); the reference declares no 409 there',
  },
  {
    operation: ['* /auth/*'],
    status: 409,
    schemaPath: ERROR_CODE(409),
    values: ['WALLET_NOT_PROVISIONED', 'SMS_OTP_CREDENTIAL_SET_CHANGED'],
    reason: 'Spec §7 lists these 409 codes; the reference’s Error409 lacks them',
  },
  {
    operation: ['POST /auth/credentials', 'POST /auth/credentials/{id}/challenge'],
    status: 501,
    schemaPath: UNDECLARED(501),
    reason: 'A production server without an email or SMS delivery provider cannot send wallet codes (501 NOT_IMPLEMENTED, details delivery NOT_CONFIGURED)',
  },
  // Agents
  {
    operation: ['* /agents/*'],
    status: 404,
    schemaPath: ERROR_CODE(404),
    values: ['NOT_FOUND'],
    reason: 'Error404 has no code for agents, their actions, device codes or the external accounts an agent names: they answer NOT_FOUND',
  },
  {
    operation: ['POST /agents', 'POST /agents/me/external-accounts'],
    status: 404,
    schemaPath: UNDECLARED(404),
    reason: "An unknown customer (or, for an agent, another customer than its own) is the reference's 404 USER_NOT_FOUND, as elsewhere",
  },
  {
    operation: ['POST /agents/me/quotes'],
    status: 404,
    schemaPath: UNDECLARED(404),
    reason: "An account that is not the agent's customer's (another customer's, the platform's, unknown) is 404 NOT_FOUND, as on the agent's transfers",
  },
  {
    operation: ['GET /agents/me/actions', 'GET /agents/me/internal-accounts'],
    status: 400,
    schemaPath: UNDECLARED(400),
    reason: 'Invalid filters and unknown query parameters are 400 INVALID_INPUT on every list, as the HTTP conventions say',
  },
];

export function deviationFor(difference: Difference, deviations: readonly Deviation[] = REFERENCE_DEVIATIONS): Deviation | undefined {
  return deviations.find(
    (d) =>
      [d.operation].flat().some((operation) => matches(operation, difference.operation)) &&
      (d.status === undefined || d.status === difference.status) &&
      matches(d.schemaPath, difference.schemaPath) &&
      (d.values === undefined || d.values.includes(difference.value)),
  );
}

function matches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(value);
}
