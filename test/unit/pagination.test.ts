import { DomainError } from '../../src/domain/errors';
import { decodeCursor, encodeCursor, toPage } from '../../src/domain/pagination';

function expectInvalidCursor(text: string): void {
  let caught: unknown;
  try {
    decodeCursor(text);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DomainError);
  const err = caught as DomainError;
  expect(err.code).toBe('INVALID_INPUT');
  expect(err.details).toEqual({ errors: [expect.objectContaining({ field: 'cursor' })] });
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('encodeCursor / decodeCursor', () => {
  test('round trip', () => {
    const cursor = { createdAt: '2025-03-04T05:06:07.089Z', id: 'Transaction:6f1c2b0e-8d7a-4c1e-9b3f-2a4d5e6f7a8b' };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  test('round trip keeps odd characters in the id', () => {
    const cursor = { createdAt: '2025-03-04T05:06:07.089Z', id: 'a"b\\c/é?&=' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  test.each([
    ['not base64 JSON', 'garbage'],
    ['empty', ''],
    ['JSON object', b64('{"createdAt":"2025-01-01T00:00:00.000Z","id":"x"}')],
    ['one element', b64('["2025-01-01T00:00:00.000Z"]')],
    ['three elements', b64('["2025-01-01T00:00:00.000Z","x","y"]')],
    ['an order other than asc', b64('["2025-01-01T00:00:00.000Z","x","desc"]')],
    ['number id', b64('["2025-01-01T00:00:00.000Z",1]')],
    ['unparseable date', b64('["yesterday","x"]')],
    ['null', b64('null')],
  ])('rejects %s with 400 INVALID_INPUT on field cursor', (_label, text) => {
    expectInvalidCursor(text);
  });
});

describe('cursors remember the order of their list', () => {
  const at = { createdAt: '2025-03-04T05:06:07.089Z', id: 'Transaction:x' };

  test('an ascending cursor round-trips with its order; a descending one keeps the two-element form', () => {
    expect(decodeCursor(encodeCursor({ ...at, order: 'asc' }), 'asc')).toEqual({ ...at, order: 'asc' });
    expect(JSON.parse(Buffer.from(encodeCursor(at), 'base64url').toString('utf8'))).toEqual([at.createdAt, at.id]);
    expect(decodeCursor(encodeCursor(at), 'desc')).toEqual(at);
  });

  test('a cursor used with the other order is refused on field cursor, naming its order', () => {
    const refusal = (text: string, order: 'asc' | 'desc') => {
      try {
        decodeCursor(text, order);
      } catch (err) {
        return err as DomainError;
      }
      throw new Error('accepted');
    };
    expect(refusal(encodeCursor(at), 'asc').details).toEqual({
      errors: [{ field: 'cursor', constraint: 'format', message: expect.stringContaining('desc order') }],
    });
    expect(refusal(encodeCursor({ ...at, order: 'asc' }), 'desc').details).toEqual({
      errors: [{ field: 'cursor', constraint: 'format', message: expect.stringContaining('asc order') }],
    });
  });
});

describe('toPage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `row-${i}`, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, 60 - i)) }));

  test('limit + 1 rows: hasMore, the extra row is dropped, and the cursor points at the last kept row', () => {
    const page = toPage(rows(4), 3, 10, (r) => r.id);
    expect(page.data).toEqual(['row-0', 'row-1', 'row-2']);
    expect(page.hasMore).toBe(true);
    expect(page.totalCount).toBe(10);
    expect(page.nextCursor).toBeDefined();
    expect(decodeCursor(page.nextCursor!)).toEqual({ createdAt: '2025-01-01T00:00:58.000Z', id: 'row-2' });
  });

  test('exactly limit rows: no more, and no nextCursor key at all', () => {
    const page = toPage(rows(3), 3, 3, (r) => r.id);
    expect(page.data).toEqual(['row-0', 'row-1', 'row-2']);
    expect(page.hasMore).toBe(false);
    expect('nextCursor' in page).toBe(false);
  });

  test('fewer than limit rows and an empty page', () => {
    expect(toPage(rows(1), 3, 1, (r) => r.id)).toEqual({ data: ['row-0'], hasMore: false, totalCount: 1 });
    expect(toPage([], 3, 0, (r: { id: string; createdAt: Date }) => r.id)).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  test('an ascending page hands out an ascending cursor', () => {
    const page = toPage(rows(3), 2, 3, (r) => r.id, 'asc');
    expect(decodeCursor(page.nextCursor!, 'asc')).toEqual({ createdAt: '2025-01-01T00:00:59.000Z', id: 'row-1', order: 'asc' });
  });

  test('the view is applied only to the rows of the page', () => {
    const seen: string[] = [];
    toPage(rows(3), 2, 3, (r) => seen.push(r.id));
    expect(seen).toEqual(['row-0', 'row-1']);
  });
});
