import { DomainError } from '../../../domain/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type SortOrder } from '../../../domain/pagination';

/** What a client asks of an in-memory directory list: the usual `limit` and `cursor`, and an order. */
export interface DirectoryPageQuery {
  limit?: number;
  cursor?: string;
  sortOrder?: SortOrder;
}

/**
 * Position after the last entry of a page: the list it belongs to (so a cursor of another list,
 * or of a database list, is refused), the key of that entry and the order of the list.
 */
interface DirectoryCursor {
  list: string;
  key: string;
  order: SortOrder;
}

const MARK = 'dir';

export function encodeDirectoryCursor(cursor: DirectoryCursor): string {
  return Buffer.from(JSON.stringify([MARK, cursor.list, cursor.key, cursor.order]), 'utf8').toString('base64url');
}

const invalidCursor = (message: string) => DomainError.invalidInput([{ field: 'cursor', constraint: 'format', message }]);

/** Reads a cursor this list returned, in this order; anything else is 400 INVALID_INPUT on `cursor`. */
export function decodeDirectoryCursor(text: string, list: string, order: SortOrder): DirectoryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!isCursorTuple(parsed) || parsed[1] !== list) throw invalidCursor(`cursor is not one this list (${list}) returned`);
  if (parsed[3] !== order) throw invalidCursor(`cursor belongs to the list in ${parsed[3]} order; send the sortOrder of the first page with it`);
  return { list, key: parsed[2], order };
}

function isCursorTuple(value: unknown): value is [typeof MARK, string, string, SortOrder] {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    value[0] === MARK &&
    typeof value[1] === 'string' &&
    typeof value[2] === 'string' &&
    (value[3] === 'asc' || value[3] === 'desc')
  );
}

/**
 * One page of a directory kept in memory, by keyset: entries are ordered by a unique string key
 * (`keyOf`, compared by UTF-16 code units, so the order never depends on a locale), and a cursor
 * remembers the key of the last entry it returned. Paging is therefore stable and, as long as the
 * data does not change between two requests, walks every entry exactly once; after a data change
 * it simply continues after the last key seen. `list` names the list in its cursors.
 */
export function pageOfDirectory<T>(
  list: string,
  entries: readonly T[],
  keyOf: (entry: T) => string,
  query: DirectoryPageQuery = {},
  defaultOrder: SortOrder = 'asc',
): Page<T> {
  return page(list, entries, keyOf, query, defaultOrder, Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(query.limit ?? DEFAULT_PAGE_SIZE))));
}

/**
 * The whole list, in order, unless the client asks for a page (`limit` or `cursor`): for lists the
 * reference returns whole, whose clients may not know how to page.
 */
export function wholeOrPageOfDirectory<T>(
  list: string,
  entries: readonly T[],
  keyOf: (entry: T) => string,
  query: DirectoryPageQuery = {},
  defaultOrder: SortOrder = 'asc',
): Page<T> {
  if (query.limit === undefined && query.cursor === undefined) return page(list, entries, keyOf, query, defaultOrder, entries.length);
  return pageOfDirectory(list, entries, keyOf, query, defaultOrder);
}

function page<T>(list: string, entries: readonly T[], keyOf: (entry: T) => string, query: DirectoryPageQuery, defaultOrder: SortOrder, limit: number): Page<T> {
  const order = query.sortOrder ?? defaultOrder;
  const after = query.cursor !== undefined ? decodeDirectoryCursor(query.cursor, list, order).key : undefined;
  const keyed = entries.map((entry) => ({ key: keyOf(entry), entry }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  keyed.forEach(({ key }, i) => {
    if (i > 0 && keyed[i - 1]!.key === key) throw new Error(`${list}: two entries share the key ${JSON.stringify(key)}`);
  });
  if (order === 'desc') keyed.reverse();
  const remaining = after === undefined ? keyed : keyed.filter(({ key }) => (order === 'asc' ? key > after : key < after));
  const page = remaining.slice(0, limit);
  const hasMore = remaining.length > limit;
  const last = page[page.length - 1];
  return {
    data: page.map(({ entry }) => entry),
    hasMore,
    ...(hasMore && last ? { nextCursor: encodeDirectoryCursor({ list, key: last.key, order }) } : {}),
    totalCount: entries.length,
  };
}
