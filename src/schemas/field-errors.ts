import type { z } from 'zod';
import type { ConstraintHint, FieldError } from '../domain/errors';

/** Turns every zod issue into a §7 field error, with a dot path rooted at `prefix`. */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)].join('.');
    const hint = hintOf(issue);
    return { field: path || prefix || 'body', constraint: constraintOf(issue), message: issue.message, ...(hint ? { hint } : {}) };
  });
}

/** The reference's FieldConstraint details a zod issue knows: allowed values, pattern, lengths, format. */
function hintOf(issue: z.core.$ZodIssue): ConstraintHint | undefined {
  switch (issue.code) {
    case 'invalid_value':
      return { enum: issue.values.map(String) };
    case 'too_small':
      return issue.origin === 'string' ? { minLength: Number(issue.minimum) } : undefined;
    case 'too_big':
      return issue.origin === 'string' ? { maxLength: Number(issue.maximum) } : undefined;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue && issue.pattern ? { pattern: String(issue.pattern) } : { format: issue.format };
    default:
      return undefined;
  }
}

function constraintOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? 'minLength' : issue.origin === 'array' ? 'minItems' : 'minimum';
    case 'too_big':
      return issue.origin === 'string' ? 'maxLength' : issue.origin === 'array' ? 'maxItems' : 'maximum';
    case 'invalid_type':
      // Needs parse(..., { reportInput: true }) to tell a missing field from a wrong type.
      if (issue.input === undefined) return 'required';
      return issue.expected === 'int' ? 'integer' : 'type';
    case 'invalid_format':
      return issue.format === 'regex' ? 'pattern' : issue.format;
    case 'invalid_value':
      // A missing enum field is reported as missing, like any other required field.
      return issue.input === undefined ? 'required' : 'enum';
    case 'invalid_union':
      // A discriminated union reports a missing or unknown discriminator (customerType) here.
      if (issue.discriminator) return (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator] === undefined ? 'required' : 'enum';
      return 'type';
    case 'unrecognized_keys':
      return 'additionalProperties';
    case 'not_multiple_of':
      return 'integer';
    case 'custom':
      return (issue.params?.constraint as string | undefined) ?? 'custom';
    default:
      return issue.code;
  }
}
