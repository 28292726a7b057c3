import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/pagination';
import { z } from '../openapi-registry';

/** An integer amount in the smallest currency unit; exact int64 on the wire. */
export const AmountSchema = z.number().int().openapi({ format: 'int64', example: 12500 });

export const CurrencySchema = z.object({ code: z.string(), name: z.string(), symbol: z.string(), decimals: z.number().int().min(0) }).openapi('Currency');

export const CurrencyAmountSchema = z.object({ amount: AmountSchema, currency: CurrencySchema }).openapi('CurrencyAmount');

export const FieldConstraintSchema = z
  .object({
    rule: z.string().openapi({
      description:
        'The rule that failed: required, type, enum, pattern, format, minLength, maxLength, minimum, maximum, additionalProperties, or a business rule',
    }),
    format: z.string().optional(),
    pattern: z.string().optional(),
    enum: z.array(z.string()).optional(),
    minLength: z.number().int().optional(),
    maxLength: z.number().int().optional(),
  })
  .openapi('FieldConstraint');

export const FieldErrorSchema = z.object({ field: z.string(), constraint: FieldConstraintSchema, message: z.string() }).openapi('FieldError');

export const ErrorSchema = z
  .object({
    status: z.number().int(),
    code: z.string().openapi({ example: 'INVALID_INPUT' }),
    reason: z.string(),
    message: z.string(),
    details: z
      .object({ errors: z.array(FieldErrorSchema).optional() })
      .passthrough()
      .optional(),
  })
  .openapi('Error');

export const errorResponses = {
  400: { description: 'Invalid input; every invalid field is listed in details.errors', schema: ErrorSchema },
  401: { description: 'Missing or invalid API credentials', schema: ErrorSchema },
  404: { description: 'Not found (or owned by another platform)', schema: ErrorSchema },
  500: { description: 'Internal error', schema: ErrorSchema },
} as const;

/**
 * What the money-movement policy answers when a customer may not move money now (customers
 * context, assertCustomerMayMoveMoney), declared on every route that moves a customer's money.
 */
export const moneyMovementRefusals = {
  403: {
    description: 'USER_NOT_READY (customer not APPROVED) or END_USER_TERMS_NOT_ACCEPTED; FORBIDDEN when a sandbox route gets a production token',
    schema: ErrorSchema,
  },
  410: { description: 'CUSTOMER_DELETED: the customer was deleted', schema: ErrorSchema },
} as const;

export const PageQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ description: `1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}` }),
  cursor: z.string().max(512).optional().openapi({ description: 'nextCursor from the previous page' }),
});

export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      hasMore: z.boolean(),
      nextCursor: z.string().optional(),
      totalCount: z.number().int(),
    })
    .openapi(name);
}

/** A path id; anything malformed simply finds nothing (404), like an unknown id. */
/** Path parameter schemas whose values are resource ids (`<Type>:<uuid>`); see mountRoute. */
export const ID_PARAMS = new WeakSet<z.ZodType>();

export const IdParam = (name: string) => {
  const schema = z.object({ [name]: z.string().min(1).max(200) });
  ID_PARAMS.add(schema);
  return schema;
};
