import { DomainError } from './errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Position after the last row of a page, in the list's (createdAt desc, id desc) order. */
export interface Cursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && !Number.isNaN(Date.parse(parsed[0]))) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw DomainError.invalidInput([{ field: 'cursor', constraint: 'format', message: 'cursor is not one this API returned' }]);
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** Builds a page from `limit + 1` fetched rows: the extra row only tells whether more exist. */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], limit: number, totalCount: number, view: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(view),
    hasMore,
    ...(hasMore && last ? { nextCursor: encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) } : {}),
    totalCount,
  };
}
