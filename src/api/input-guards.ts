import { z } from 'zod';
import type { FieldError } from '../domain/errors';

/**
 * How deeply a JSON body may nest objects and arrays: far beyond any request of this API (its
 * deepest is a handful of levels), and low enough that no recursive walk over a body (the NUL
 * check, zod, the idempotency fingerprint) can run out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests objects or arrays deeper than `maxDepth`; walked without recursion. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { value: object; depth: number }[] = value !== null && typeof value === 'object' ? [{ value, depth: 1 }] : [];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > maxDepth) return true;
    for (const child of Object.values(next.value))
      if (child !== null && typeof child === 'object') pending.push({ value: child as object, depth: next.depth + 1 });
  }
  return false;
}

/** The refusal of a body nested deeper than MAX_JSON_DEPTH. */
export function tooDeepError(): FieldError {
  return {
    field: 'body',
    constraint: 'maxDepth',
    message: `Objects and arrays may be nested at most ${MAX_JSON_DEPTH} levels deep`,
    hint: { maxDepth: MAX_JSON_DEPTH },
  };
}

/**
 * Finds NUL characters anywhere in a request's strings (values and keys, at any depth).
 * PostgreSQL cannot store them in text, so they are refused at the edge, once, for every route,
 * instead of failing deep inside a query.
 */
export function nulCharacterErrors(value: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (v: unknown, at: string) => {
    if (typeof v === 'string') {
      if (v.includes('\u0000')) errors.push({ field: at, constraint: 'pattern', message: 'Must not contain the NUL character (\\u0000)' });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, `${at}.${i}`));
    } else if (v && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const name = at ? `${at}.${key}` : key;
        if (key.includes('\u0000'))
          errors.push({ field: name.split('\u0000').join('\\u0000'), constraint: 'pattern', message: 'Must not contain the NUL character (\\u0000)' });
        else visit(item, name);
      }
    }
  };
  visit(value, path);
  return errors;
}

/** The parameter names an object query schema declares (none when a route takes no query). */
export function declaredKeys(schema: z.ZodType | undefined): Set<string> | null {
  if (!schema) return new Set();
  if (schema instanceof z.ZodObject) return new Set(Object.keys(schema.shape));
  return null; // not an object schema: it validates the whole query itself
}

/** Query parameters the route does not know are refused, never ignored. */
export function unknownQueryErrors(query: Record<string, unknown>, declared: Set<string> | null): FieldError[] {
  if (!declared) return [];
  return Object.keys(query)
    .filter((name) => !declared.has(name))
    .map((name) => ({
      field: name.split('\u0000').join('\\u0000'),
      constraint: 'additionalProperties',
      message: declared.size > 0 ? `Unknown query parameter; this endpoint takes ${[...declared].join(', ')}` : 'This endpoint takes no query parameters',
    }));
}

/**
 * Path parameters of this API are resource ids (`<Type>:<uuid>`). A segment without a colon is a
 * literal path (`/customers/external-accounts`), never an id: such a request is not this route's.
 */
export function looksLikeId(value: string): boolean {
  return value.includes(':');
}
