/** One invalid field in a request, reported in `details.errors[]` (spec §7). */
export interface FieldError {
  field: string;
  constraint: string;
  message: string;
}

/**
 * An error with its HTTP status and spec code. Thrown anywhere below the API and turned into
 * the §7 error body by the error middleware.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(reason);
    this.name = 'ApiError';
  }

  static invalidInput(errors: FieldError[], reason = 'The request has invalid fields'): ApiError {
    return new ApiError(400, 'INVALID_INPUT', reason, { errors });
  }
  static unauthorized(reason = 'Invalid or missing API credentials'): ApiError {
    return new ApiError(401, 'UNAUTHORIZED', reason);
  }
  static forbidden(code: string, reason: string): ApiError {
    return new ApiError(403, code, reason);
  }
  static notFound(what: string): ApiError {
    return new ApiError(404, 'NOT_FOUND', `${what} not found`);
  }
  static conflict(code: string, reason: string, details?: Record<string, unknown>): ApiError {
    return new ApiError(409, code, reason, details);
  }
  static internal(reason = 'Internal error'): ApiError {
    return new ApiError(500, 'INTERNAL_ERROR', reason);
  }
}

export function errorBody(err: ApiError) {
  return {
    status: err.status,
    code: err.code,
    reason: err.reason,
    message: err.reason,
    ...(err.details ? { details: err.details } : {}),
  };
}
