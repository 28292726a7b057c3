import type { DomainError, ErrorCode, FieldError } from '../domain/errors';

/** The one place where an error code becomes an HTTP status. Every code must be listed. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  MISSING_MANDATORY_USER_INFO: 400,
  END_USER_TERMS_VERSION_NOT_FOUND: 400,
  INSUFFICIENT_FUNDS: 400,
  WEBHOOK_ENDPOINT_NOT_SET: 400,
  WEBHOOK_DELIVERY_ERROR: 400,
  VERIFICATION_ALREADY_DECIDED: 400,
  INVALID_BANK_ACCOUNT: 400,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  INVALID_CURRENCY: 400,
  QUOTE_RATE_UNAVAILABLE: 400,
  TRANSACTION_SIZE_LIMIT_EXCEEDED: 400,
  SELF_PAYMENT: 400,
  QUOTE_EXPIRED: 400,
  INVALID_UMA_ADDRESS: 400,
  INVITATION_ALREADY_CLAIMED: 400,
  INVITATIONS_NOT_CONFIGURED: 400,
  INVITATION_CANCELLED: 400,
  UNAUTHORIZED: 401,
  WALLET_SIGNATURE_MISSING: 401,
  FORBIDDEN: 403,
  USER_NOT_READY: 403,
  END_USER_TERMS_NOT_ACCEPTED: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  QUOTE_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  VERIFICATION_NOT_FOUND: 404,
  DOCUMENT_NOT_FOUND: 404,
  BENEFICIAL_OWNER_NOT_FOUND: 404,
  UMA_NOT_FOUND: 404,
  BULK_UPLOAD_JOB_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE_EXTERNAL_ACCOUNT: 409,
  TRANSACTION_NOT_CANCELLABLE: 409,
  BANK_ACCOUNT_VALIDATION_PENDING: 409,
  UMA_ADDRESS_EXISTS: 409,
  DOCUMENT_ALREADY_EXISTS: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  INVALID_STATE_TRANSITION: 409,
  CARD_ALREADY_CLOSED: 409,
  CARD_NOT_MUTABLE: 409,
  CARD_LIMIT_REACHED: 409,
  CARDHOLDER_KYC_NOT_APPROVED: 400,
  OPERATION_IN_PROGRESS: 409,
  CUSTOMER_DELETED: 410,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
};

export function httpStatusOf(err: DomainError): number {
  return HTTP_STATUS[err.code];
}

/** The §7 error body; field errors carry the reference's FieldConstraint object. */
export function errorBody(err: DomainError) {
  return {
    status: httpStatusOf(err),
    code: err.code,
    reason: err.reason,
    message: err.reason,
    ...(err.details ? { details: withConstraintObjects(err.details) } : {}),
  };
}

function withConstraintObjects(details: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(details.errors)) return details;
  return {
    ...details,
    errors: (details.errors as FieldError[]).map(({ constraint, hint, ...rest }) => ({ ...rest, constraint: { rule: constraint, ...hint } })),
  };
}
