import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { get, newKey, post, type Page } from '../api';
import { PageTitle } from '../components/Layout';
import { ErrorMessage, Field, Loading, Pager, Status, When, WriteButton } from '../components/ui';
import { useCursor } from '../paging';
import { POLL_MS } from '../poll';
import { customerName, type Customer } from '../types';

export default function Customers() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Record<string, string | undefined>>({});
  const paging = useCursor();
  const list = useQuery({
    queryKey: ['customers', filters, paging.cursor],
    queryFn: () => get<Page<Customer>>('/customers', { ...filters, limit: 25, cursor: paging.cursor }),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => post<Customer>('/customers', body, newKey()),
    onSuccess: (c) => {
      void queryClient.invalidateQueries({ queryKey: ['customers'] });
      void navigate(`/customers/${encodeURIComponent(c.id)}`);
    },
  });

  function search(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const value = (k: string) => String(data.get(k) ?? '').trim() || undefined;
    setFilters({ platformCustomerId: value('platformCustomerId'), customerType: value('customerType'), umaAddress: value('umaAddress') });
    paging.first();
  }
  function submitCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const type = String(data.get('customerType'));
    const name = String(data.get('name') ?? '').trim();
    create.mutate({
      customerType: type,
      platformCustomerId: String(data.get('platformCustomerId') ?? '').trim(),
      ...(type === 'INDIVIDUAL' ? { fullName: name } : { businessInfo: { legalName: name } }),
      ...(String(data.get('email') ?? '').trim() ? { email: String(data.get('email')).trim() } : {}),
    });
  }

  return (
    <>
      <PageTitle title="Customers">Customers</PageTitle>
      <form className="filters" onSubmit={search} aria-label="Search customers">
        <Field label="Platform customer id">{(id) => <input id={id} name="platformCustomerId" />}</Field>
        <Field label="Type">
          {(id) => (
            <select id={id} name="customerType" defaultValue="">
              <option value="">Any</option>
              <option>INDIVIDUAL</option>
              <option>BUSINESS</option>
            </select>
          )}
        </Field>
        <Field label="UMA address">{(id) => <input id={id} name="umaAddress" />}</Field>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={list.error} />
      {!list.data && !list.error && <Loading what="customers" />}
      {list.data && (
        <>
          <table aria-label="Customers">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Platform id</th>
                <th scope="col">Type</th>
                <th scope="col">KYC / KYB</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/customers/${encodeURIComponent(c.id)}`}>{customerName(c)}</Link>
                  </td>
                  <td>{c.platformCustomerId}</td>
                  <td>{c.customerType}</td>
                  <td>
                    <Status value={c.kycStatus ?? c.kybStatus} />
                  </td>
                  <td>
                    <When at={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data.data.length === 0 && <p className="muted">No customers match.</p>}
          <Pager hasMore={list.data.hasMore} atFirst={paging.atFirst} onFirst={paging.first} onNext={() => paging.next(list.data?.nextCursor)} />
        </>
      )}
      <section aria-labelledby="h-new-customer" className="card">
        <h2 id="h-new-customer">Add a customer</h2>
        <form onSubmit={submitCreate}>
          <Field label="Type">
            {(id) => (
              <select id={id} name="customerType" defaultValue="INDIVIDUAL">
                <option>INDIVIDUAL</option>
                <option>BUSINESS</option>
              </select>
            )}
          </Field>
          <Field label="Platform customer id">{(id) => <input id={id} name="platformCustomerId" required />}</Field>
          <Field label="Full name or legal name">{(id) => <input id={id} name="name" required />}</Field>
          <Field label="Email (optional)">{(id) => <input id={id} name="email" type="email" />}</Field>
          <WriteButton permission="MANAGE" disabled={create.isPending}>
            Add customer
          </WriteButton>
        </form>
        <ErrorMessage error={create.error} />
      </section>
    </>
  );
}
