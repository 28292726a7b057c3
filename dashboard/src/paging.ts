import { useState } from 'react';

/** Server-side cursor paging: the cursors of the pages before this one, to go back to the first. */
export function useCursor() {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  return {
    cursor,
    atFirst: cursor === undefined,
    next: (nextCursor: string | null | undefined) => nextCursor && setCursor(nextCursor),
    first: () => setCursor(undefined),
  };
}
