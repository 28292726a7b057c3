import { DomainError } from './errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The order of a list: by createdAt (then id), newest first (`desc`, the default) or oldest first. */
export type SortOrder = 'asc' | 'desc';

/**
 * Position after the last row of a page, in the list's (createdAt, id) order. A cursor remembers
 * the order of the list it came from (`order` is absent for the default `desc`), so it cannot be
 * replayed against the other order, where it would return the rows already seen.
 */
export interface Cursor {
  createdAt: string;
  id: string;
  order?: 'asc';
}

export function encodeCursor(cursor: Cursor): string {
  const parts = cursor.order === 'asc' ? [cursor.createdAt, cursor.id, 'asc'] : [cursor.createdAt, cursor.id];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

const invalidCursor = (message: string) => DomainError.invalidInput([{ field: 'cursor', constraint: 'format', message }]);

/**
 * Reads a cursor this API returned. With `order`, the cursor must come from a list in that order
 * (a `desc` cursor used with `sortOrder=asc`, or the reverse, is refused).
 */
export function decodeCursor(text: string, order?: SortOrder): Cursor {
  let cursor: Cursor | null = null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      (parsed.length === 2 || (parsed.length === 3 && parsed[2] === 'asc')) &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      !Number.isNaN(Date.parse(parsed[0]))
    ) {
      cursor = { createdAt: parsed[0], id: parsed[1], ...(parsed.length === 3 ? { order: 'asc' as const } : {}) };
    }
  } catch {
    // fall through to the error below
  }
  if (!cursor) throw invalidCursor('cursor is not one this API returned');
  if (order && (cursor.order ?? 'desc') !== order) {
    throw invalidCursor(`cursor belongs to a list in ${cursor.order ?? 'desc'} order; send the sortOrder of the first page with it`);
  }
  return cursor;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** Builds a page from `limit + 1` fetched rows: the extra row only tells whether more exist. */
export function toPage<R extends { createdAt: Date; id: string }, T>(
  rows: R[],
  limit: number,
  totalCount: number,
  view: (row: R) => T,
  order: SortOrder = 'desc',
): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(view),
    hasMore,
    ...(hasMore && last ? { nextCursor: encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id, ...(order === 'asc' ? { order } : {}) }) } : {}),
    totalCount,
  };
}
