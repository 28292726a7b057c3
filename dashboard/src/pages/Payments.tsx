import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get, type Page } from '../api';
import { PageTitle } from '../components/Layout';
import { ErrorMessage, Field, Loading, Pager, Status, When } from '../components/ui';
import { formatMoney } from '../money';
import { useCursor } from '../paging';
import { POLL_MS } from '../poll';
import type { Transaction } from '../types';

const STATUSES = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'];

interface Filters {
  status?: string;
  type?: string;
  customerId?: string;
  reference?: string;
  startDate?: string;
  endDate?: string;
}

/** A date input's day as the API's ISO filter: the start of the day, or its last millisecond. */
const dayBound = (day: string | undefined, end: boolean) => (day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z`).toISOString() : undefined);

export default function Payments() {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => ({ customerId: params.get('customerId') ?? undefined }));
  const paging = useCursor();
  const list = useQuery({
    queryKey: ['transactions', filters, paging.cursor],
    queryFn: () =>
      get<Page<Transaction>>('/transactions', {
        ...filters,
        startDate: dayBound(filters.startDate, false),
        endDate: dayBound(filters.endDate, true),
        limit: 25,
        cursor: paging.cursor,
      }),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });

  function apply(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const value = (k: string) => String(data.get(k) ?? '').trim() || undefined;
    setFilters({
      status: value('status'),
      type: value('type'),
      customerId: value('customerId'),
      reference: value('reference'),
      startDate: value('startDate'),
      endDate: value('endDate'),
    });
    paging.first();
  }

  return (
    <>
      <PageTitle title="Payments">Payments</PageTitle>
      <form className="filters" onSubmit={apply} aria-label="Filter payments">
        <Field label="Status">
          {(id) => (
            <select id={id} name="status" defaultValue="">
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Type">
          {(id) => (
            <select id={id} name="type" defaultValue="">
              <option value="">Any</option>
              <option>INCOMING</option>
              <option>OUTGOING</option>
            </select>
          )}
        </Field>
        <Field label="Customer id">{(id) => <input id={id} name="customerId" placeholder="Customer:…" defaultValue={filters.customerId} />}</Field>
        <Field label="Reference">{(id) => <input id={id} name="reference" />}</Field>
        <Field label="From (UTC day)">{(id) => <input id={id} name="startDate" type="date" />}</Field>
        <Field label="To (UTC day)">{(id) => <input id={id} name="endDate" type="date" />}</Field>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorMessage error={list.error} />
      {!list.data && !list.error && <Loading what="payments" />}
      {list.data && (
        <>
          <table aria-label="Payments" aria-busy={list.isFetching}>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Sent
                </th>
                <th scope="col" className="num">
                  Received
                </th>
                <th scope="col">Customer</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((t) => (
                <tr key={t.id} data-testid="payment-row">
                  <td>
                    <Link to={`/payments/${encodeURIComponent(t.id)}`}>{t.id.replace(/^Transaction:/, '').slice(0, 8)}</Link>
                  </td>
                  <td>{t.type}</td>
                  <td>
                    <Status value={t.status} />
                  </td>
                  <td className="num">{formatMoney(t.sentAmount)}</td>
                  <td className="num">{formatMoney(t.receivedAmount)}</td>
                  <td>{t.platformCustomerId ?? t.customerId}</td>
                  <td>
                    <When at={t.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data.data.length === 0 && <p className="muted">No payments match.</p>}
          <Pager hasMore={list.data.hasMore} atFirst={paging.atFirst} onFirst={paging.first} onNext={() => paging.next(list.data?.nextCursor)} />
        </>
      )}
    </>
  );
}
