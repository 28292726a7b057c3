/**
 * The service's error vocabulary. Code is thrown as a DomainError carrying only a code, a
 * reason and optional details; the API edge maps the code to an HTTP status (src/api/
 * error-status.ts) and activities turn it into a non-retryable ApplicationFailure whose type is
 * the code (activities/failures.ts), so a refusal raised inside a workflow reaches the caller
 * with the same code. The codes are the spec's and the public reference's.
 */
export const ERROR_CODES = [
  // 400
  'INVALID_INPUT',
  'MISSING_MANDATORY_USER_INFO',
  'END_USER_TERMS_VERSION_NOT_FOUND',
  'INSUFFICIENT_FUNDS',
  'WEBHOOK_ENDPOINT_NOT_SET',
  'WEBHOOK_DELIVERY_ERROR',
  'VERIFICATION_ALREADY_DECIDED',
  'INVALID_BANK_ACCOUNT',
  'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
  'AMOUNT_OUT_OF_RANGE',
  'INVALID_CURRENCY',
  'QUOTE_RATE_UNAVAILABLE',
  'TRANSACTION_SIZE_LIMIT_EXCEEDED',
  'SELF_PAYMENT',
  'QUOTE_EXPIRED',
  'INVALID_UMA_ADDRESS',
  'CARDHOLDER_KYC_NOT_APPROVED',
  'FUNDING_SOURCE_INELIGIBLE',
  'INVITATION_ALREADY_CLAIMED',
  'INVITATIONS_NOT_CONFIGURED',
  'INVITATION_CANCELLED',
  'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
  'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
  'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
  'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
  'STABLECOIN_BURN_SOURCE_NOT_SUPPORTED',
  'STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED',
  'STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED',
  'STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED',
  'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
  'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED',
  'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED',
  'STABLECOIN_GRID_OPERATIONS_NOT_ENABLED',
  'STABLECOIN_NOT_PROVISIONED',
  'STABLECOIN_OPERATION_NOT_SUPPORTED',
  'STABLECOIN_PROVIDER_ERROR',
  'STABLECOIN_PROVIDER_SOURCE_NOT_LINKED',
  'STABLECOIN_VERIFICATION_FAILED',
  // 401, 403
  'UNAUTHORIZED',
  'WALLET_SIGNATURE_MISSING',
  'FORBIDDEN',
  'USER_NOT_READY',
  'END_USER_TERMS_NOT_ACCEPTED',
  // 404
  'NOT_FOUND',
  'USER_NOT_FOUND',
  'TRANSACTION_NOT_FOUND',
  'QUOTE_NOT_FOUND',
  'TOKEN_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'VERIFICATION_NOT_FOUND',
  'DOCUMENT_NOT_FOUND',
  'BENEFICIAL_OWNER_NOT_FOUND',
  'UMA_NOT_FOUND',
  'BULK_UPLOAD_JOB_NOT_FOUND',
  'INVITATION_NOT_FOUND',
  'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  // 405
  'METHOD_NOT_ALLOWED',
  // 409
  'CONFLICT',
  'UMA_ADDRESS_EXISTS',
  // 409: the service's own (docs/deviations.md): a UMA domain another platform holds, or one still in use
  'UMA_DOMAIN_TAKEN',
  'UMA_DOMAIN_IN_USE',
  'DOCUMENT_ALREADY_EXISTS',
  'IDEMPOTENCY_KEY_REUSED',
  'INVALID_STATE_TRANSITION',
  'OPERATION_IN_PROGRESS',
  'DUPLICATE_EXTERNAL_ACCOUNT',
  'TRANSACTION_NOT_CANCELLABLE',
  'BANK_ACCOUNT_VALIDATION_PENDING',
  'CARD_ALREADY_CLOSED',
  'CARD_NOT_MUTABLE',
  'CARD_LIMIT_REACHED',
  'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE',
  'STABLECOIN_SYMBOL_ALREADY_EXISTS',
  'STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS',
  // Embedded-wallet passkeys (wallet-keys): a credentialId registered twice (400), a second passkey of a customer (409)
  'PASSKEY_ALREADY_ENROLLED',
  'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
  // 409: agents (an agent action that is not PENDING_APPROVAL cannot be approved or rejected)
  'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  // 410
  'CUSTOMER_DELETED',
  // 413: the reference has no code for it (docs/deviations.md)
  'PAYLOAD_TOO_LARGE',
  // 415: nor for this one (docs/deviations.md)
  'UNSUPPORTED_MEDIA_TYPE',
  // 429: the reference's Error429 code
  'RATE_LIMITED',
  // Embedded-wallet authentication (wallet-auth): credentials, sessions, signed requests
  'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
  'REQUEST_ID_MISSING',
  'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
  'SMS_OTP_CREDENTIAL_SET_CHANGED',
  'WALLET_NOT_PROVISIONED',
  'WALLET_SIGNATURE_BODY_MISMATCH',
  'WALLET_SIGNATURE_INVALID',
  'WALLET_SIGNATURE_MALFORMED',
  // Wallet-tied contact changes (customers, spec §4.4)
  'AUTH_CREDENTIAL_VERIFICATION_EXPIRED',
  'AUTH_CREDENTIAL_VERIFICATION_REQUIRED',
  'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
  'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
  // 500, 501
  'INTERNAL_ERROR',
  'NOT_IMPLEMENTED',
  // 503
  'SERVICE_UNAVAILABLE',
  // Strong Customer Authentication (sca context): 423, 409 (PASSKEY_ALREADY_ENROLLED, shared with wallet passkeys, is above)
  'ACCOUNT_LOCKED',
  'SCA_SESSION_REQUIRED',
  // SCA of payments and trusted beneficiaries (sca-payments): 409
  'BENEFICIARY_TRUSTED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The codes as constants, for workflows (which may import this pure module) and for naming a
 * failure type once: `ERROR.INSUFFICIENT_FUNDS` rather than the string repeated.
 */
export const ERROR = Object.fromEntries(ERROR_CODES.map((code) => [code, code])) as { readonly [C in ErrorCode]: C };

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The public reference's 404 codes by resource. Resources it has no code for (internal
 * accounts, verifications, documents, beneficial owners) answer NOT_FOUND (docs/deviations.md).
 */
const NOT_FOUND_CODES: Record<string, ErrorCode> = {
  Customer: 'USER_NOT_FOUND',
  Transaction: 'TRANSACTION_NOT_FOUND',
  Quote: 'QUOTE_NOT_FOUND',
  Token: 'TOKEN_NOT_FOUND',
  BulkImportJob: 'BULK_UPLOAD_JOB_NOT_FOUND',
  Invitation: 'INVITATION_NOT_FOUND',
  StablecoinProviderAccount: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
};

/**
 * What a field must satisfy, as the public reference's FieldConstraint describes it (a hint a
 * client can use to validate before resubmitting).
 */
export interface ConstraintHint {
  format?: string;
  pattern?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  maxDepth?: number;
}

/**
 * One invalid field in a request, reported in `details.errors[]` (spec §7). `constraint` names
 * the rule that failed (`required`, `enum`, `maxLength`, `notDecided`, …); on the wire it becomes
 * the reference's FieldConstraint object, `{ rule, ...hint }` (src/api/error-status.ts).
 */
export interface FieldError {
  field: string;
  constraint: string;
  message: string;
  hint?: ConstraintHint;
}

/** Field rules with a code of their own in the reference, used when they are all a request breaks. */
const RULE_CODES: Partial<Record<string, { code: ErrorCode; reason: string }>> = {
  // createCard / updateCardById document it for a source that is not the cardholder's, not usable, or in another currency.
  fundingSourceIneligible: {
    code: 'FUNDING_SOURCE_INELIGIBLE',
    reason: "A funding source is ineligible: each must be one of the cardholder's ACTIVE internal accounts, in the card's currency",
  },
};

/** A refusal with its code; knows nothing of HTTP or Temporal. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(reason);
    this.name = 'DomainError';
  }

  static invalidInput(errors: FieldError[], reason = 'The request has invalid fields'): DomainError {
    return new DomainError('INVALID_INPUT', reason, { errors });
  }
  /**
   * The refusal of a request's invalid fields: INVALID_INPUT, unless every one of them breaks a
   * rule the reference answers with a code of its own (RULE_CODES), then that code, the fields
   * listed the same way.
   */
  static invalidFields(errors: FieldError[]): DomainError {
    const codes = new Set(errors.map((e) => RULE_CODES[e.constraint]));
    const [only] = codes;
    if (codes.size === 1 && only) return new DomainError(only.code, only.reason, { errors });
    return DomainError.invalidInput(errors);
  }
  static unauthorized(reason = 'Invalid or missing API credentials'): DomainError {
    return new DomainError('UNAUTHORIZED', reason);
  }
  /** A resource that does not exist (or belongs to another platform), with the reference's code for its kind. */
  static notFound(what: string, code: ErrorCode = NOT_FOUND_CODES[what] ?? 'NOT_FOUND'): DomainError {
    return new DomainError(code, `${what} not found`);
  }
  static internal(reason = 'Internal error'): DomainError {
    return new DomainError('INTERNAL_ERROR', reason);
  }
}
