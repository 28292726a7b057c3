import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { get, type Page } from '../api';
import { useInternalAccounts } from '../accounts';
import { PageTitle } from '../components/Layout';
import { CustomerEdit } from '../components/CustomerEdit';
import { ErrorMessage, Json, Loading, Status, When } from '../components/ui';
import { formatMoney } from '../money';
import { customerName, type Customer as CustomerT } from '../types';

interface Item {
  id: string;
  status?: string;
  /** A card's lifecycle (cards answer `state`, not `status`). */
  state?: string;
  createdAt?: string;
  [k: string]: unknown;
}

function Related({ title, path, query, columns }: { title: string; path: string; query: Record<string, string>; columns: (keyof Item)[] }) {
  const list = useQuery({ queryKey: [path, query], queryFn: () => get<Page<Item>>(path, { ...query, limit: 50 }) });
  const headingId = `h-${path.replace(/\W/g, '-')}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ErrorMessage error={list.error} />
      {!list.data && !list.error && <Loading what={title.toLowerCase()} />}
      {list.data && list.data.data.length === 0 && <p className="muted">None.</p>}
      {list.data && list.data.data.length > 0 && (
        <table aria-label={title}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col" key={String(c)}>
                  {String(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((item) => (
              <tr key={item.id}>
                {columns.map((c) => (
                  <td key={String(c)}>
                    {c === 'status' || c === 'state' ? <Status value={item[c]} /> : c === 'createdAt' ? <When at={item.createdAt} /> : String(item[c] ?? '—')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function Customer() {
  const { id = '' } = useParams();
  const customer = useQuery({ queryKey: ['customer', id], queryFn: () => get<CustomerT>(`/customers/${encodeURIComponent(id)}`) });
  const accounts = useInternalAccounts(id);
  if (customer.error) return <ErrorMessage error={customer.error} />;
  if (!customer.data) return <Loading what="the customer" />;
  const c = customer.data;
  return (
    <>
      <PageTitle title={`Customer ${customerName(c)}`}>{customerName(c)}</PageTitle>
      <p>
        <Link to="/customers">All customers</Link> · <Link to={`/payments?customerId=${encodeURIComponent(c.id)}`}>Payments</Link>
      </p>
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
        <dt>Platform id</dt>
        <dd>{c.platformCustomerId}</dd>
        <dt>Type</dt>
        <dd>{c.customerType}</dd>
        <dt>{c.customerType === 'BUSINESS' ? 'KYB' : 'KYC'}</dt>
        <dd>
          <Status value={c.kycStatus ?? c.kybStatus} />
        </dd>
        <dt>Email</dt>
        <dd>{c.email ?? '—'}</dd>
      </dl>
      <Json value={c} label="every field" />
      <section aria-labelledby="h-accounts">
        <h2 id="h-accounts">Internal accounts</h2>
        <ErrorMessage error={accounts.error} />
        <table aria-label="Internal accounts">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col" className="num">
                Available
              </th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.data?.data.map((a) => (
              <tr key={a.id}>
                <td>
                  <code>{a.id}</code>
                </td>
                <td className="num">{formatMoney(a.balance)}</td>
                <td className="num">{formatMoney(a.totalBalance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <Related title="External accounts" path="/customers/external-accounts" query={{ customerId: c.id }} columns={['id', 'currency', 'status']} />
      <Related title="Verifications" path="/verifications" query={{ customerId: c.id }} columns={['id', 'status', 'createdAt']} />
      <Related title="Documents" path="/documents" query={{ customerId: c.id }} columns={['id', 'documentType', 'createdAt']} />
      <Related title="Beneficial owners" path="/beneficial-owners" query={{ customerId: c.id }} columns={['id', 'status', 'createdAt']} />
      <Related title="Cards" path="/cards" query={{ cardholderId: c.id }} columns={['id', 'state', 'createdAt']} />
      <Related title="Agents" path="/agents" query={{ customerId: c.id }} columns={['id', 'name', 'createdAt']} />
      <section aria-labelledby="h-edit" className="card">
        <h2 id="h-edit">Edit</h2>
        <CustomerEdit customer={c} />
      </section>
    </>
  );
}
