import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, type Page } from '../api';
import { useCursor } from '../paging';
import { POLL_MS } from '../poll';
import { ErrorMessage, Loading, Pager, Status, When } from './ui';

export interface Column<T> {
  label: string;
  value(item: T): React.ReactNode;
}

/** A polled, server-paged list of one API collection. */
export function SimpleList<T extends { id: string; status?: string; createdAt?: string }>({
  path,
  label,
  columns,
  query = {},
  status = (item) => item.status,
}: {
  path: string;
  label: string;
  columns: Column<T>[];
  query?: Record<string, string | undefined>;
  /** The item's state, when the API names it otherwise than `status` (a card's `state`). */
  status?: (item: T) => string | undefined;
}) {
  const paging = useCursor();
  const list = useQuery({
    queryKey: [path, query, paging.cursor],
    queryFn: () => get<Page<T>>(path, { ...query, limit: 25, cursor: paging.cursor }),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });
  if (list.error) return <ErrorMessage error={list.error} />;
  if (!list.data) return <Loading what={label.toLowerCase()} />;
  return (
    <>
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c.label}>
                {c.label}
              </th>
            ))}
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data.data.map((item) => (
            <tr key={item.id} data-testid="list-row">
              {columns.map((c) => (
                <td key={c.label}>{c.value(item)}</td>
              ))}
              <td>
                <Status value={status(item)} />
              </td>
              <td>
                <When at={item.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data.data.length === 0 && <p className="muted">None yet.</p>}
      <Pager hasMore={list.data.hasMore} atFirst={paging.atFirst} onFirst={paging.first} onNext={() => paging.next(list.data?.nextCursor)} />
    </>
  );
}
