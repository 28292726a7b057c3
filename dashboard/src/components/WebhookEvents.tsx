import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { get, newKey, post, type Page } from '../api';
import { useCursor } from '../paging';
import { POLL_MS } from '../poll';
import type { WebhookEvent } from '../types';
import { Done, ErrorMessage, Json, Loading, Pager, Status, When, WriteButton } from './ui';

export interface EventFilters {
  type?: string;
  state?: string;
  resourceId?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** GET /webhook-events (beyond the reference), with each event's attempts one click away. */
export function WebhookEvents({ filters, label }: { filters: EventFilters; label: string }) {
  const paging = useCursor();
  const events = useQuery({
    queryKey: ['webhook-events', filters, paging.cursor],
    queryFn: () => get<Page<WebhookEvent>>('/webhook-events', { ...filters, limit: 25, cursor: paging.cursor }),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });
  const [open, setOpen] = useState<string | null>(null);
  if (events.error) return <ErrorMessage error={events.error} />;
  if (!events.data) return <Loading what="webhook events" />;
  return (
    <>
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Resource</th>
            <th scope="col">Created</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {events.data.data.map((e) => (
            <tr key={e.id} data-testid="webhook-event-row">
              <td>{e.type}</td>
              <td>
                <Status value={e.state} />
              </td>
              <td>
                <ResourceLink id={e.resourceId} />
              </td>
              <td>
                <When at={e.createdAt} />
              </td>
              <td>
                <button type="button" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  {open === e.id ? 'Hide' : 'Show'} attempts<span className="visually-hidden"> of {e.type}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.data.data.length === 0 && <p className="muted">No webhook events.</p>}
      {open && <EventDetail id={open} />}
      <Pager hasMore={events.data.hasMore} atFirst={paging.atFirst} onFirst={paging.first} onNext={() => paging.next(events.data?.nextCursor)} />
    </>
  );
}

/** The resource an event is about, linked to its page when the dashboard has one. */
function ResourceLink({ id }: { id: string | null | undefined }) {
  if (!id) return <>—</>;
  const page = id.startsWith('Transaction:') || id.startsWith('CardTransaction:') ? 'payments' : id.startsWith('Customer:') ? 'customers' : null;
  return page ? (
    <Link to={`/${page}/${encodeURIComponent(id)}`}>
      <code>{id}</code>
    </Link>
  ) : (
    <code>{id}</code>
  );
}

function EventDetail({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const event = useQuery({
    queryKey: ['webhook-event', id],
    queryFn: () => get<WebhookEvent>(`/webhook-events/${encodeURIComponent(id)}`),
    refetchInterval: POLL_MS,
  });
  const resend = useMutation({
    mutationFn: () => post<unknown>(`/webhook-events/${encodeURIComponent(id)}/resend`, undefined, newKey()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-event', id] }),
  });
  if (event.error) return <ErrorMessage error={event.error} />;
  if (!event.data) return <Loading what="the event" />;
  const e = event.data;
  return (
    <section aria-labelledby={`ev-${id}`} className="card">
      <h3 id={`ev-${id}`}>
        {e.type} <small className="muted">{e.id}</small>
      </h3>
      <table aria-label="Delivery attempts">
        <thead>
          <tr>
            <th scope="col">Attempted</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Response
            </th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {(e.deliveryAttempts ?? []).map((a, i) => (
            <tr key={i}>
              <td>
                <When at={a.attemptedAt} />
              </td>
              <td>
                <Status value={a.outcome} />
              </td>
              <td className="num">{a.responseStatus ?? '—'}</td>
              <td className="num">{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
              <td>{a.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(e.deliveryAttempts ?? []).length === 0 && <p className="muted">No attempt yet.</p>}
      <Json value={e.payload} label="the body sent" />
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          resend.mutate();
        }}
      >
        <WriteButton permission="MANAGE" disabled={resend.isPending}>
          Resend this event
        </WriteButton>
      </form>
      {resend.isSuccess && <Done>Queued for delivery again.</Done>}
      <ErrorMessage error={resend.error} />
    </section>
  );
}
