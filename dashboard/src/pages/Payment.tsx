import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { get, newKey, post } from '../api';
import { PageTitle } from '../components/Layout';
import { Done, ErrorMessage, Field, Json, Loading, Status, When, WriteButton } from '../components/ui';
import { WebhookEvents } from '../components/WebhookEvents';
import { formatMinor, formatMoney } from '../money';
import { POLL_MS } from '../poll';
import { useSession } from '../session';
import type { LedgerEntry, Transaction } from '../types';

const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']);

export function temporalLink(uiUrl: string, namespace: string, transactionId: string): string {
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(`TransactionId="${transactionId}"`)}`;
}

export default function Payment() {
  const { id = '' } = useParams();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const tx = useQuery({
    queryKey: ['transaction', id],
    queryFn: () => get<Transaction>(`/transactions/${encodeURIComponent(id)}`),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : POLL_MS),
  });
  const [reason, setReason] = useState('');
  const act = useMutation({
    mutationFn: (action: 'cancel' | 'approve' | 'reject') =>
      post<Transaction>(`/transactions/${encodeURIComponent(id)}/${action}`, action === 'approve' ? {} : reason ? { reason } : {}, newKey()),
    onSuccess: (t) => {
      queryClient.setQueryData(['transaction', id], t);
      void queryClient.invalidateQueries({ queryKey: ['transactions'] });
    },
  });

  if (tx.error) return <ErrorMessage error={tx.error} />;
  if (!tx.data) return <Loading what="the payment" />;
  const t = tx.data;
  const sendDecimals = t.sentAmount?.currency.decimals ?? 2;
  const cancellable = t.type === 'OUTGOING' && ['PENDING', 'PROCESSING'].includes(t.status);
  const decidable = t.status === 'PENDING' && (t.type === 'INCOMING' || !!t.agentId);
  const onAction = (action: 'cancel' | 'approve' | 'reject') => (e: FormEvent) => {
    e.preventDefault();
    act.mutate(action);
  };
  return (
    <>
      <PageTitle title={`Payment ${t.id}`}>
        Payment <Status value={t.status} />
      </PageTitle>
      <p>
        <Link to="/payments">All payments</Link>
      </p>
      <dl className="facts" data-testid="payment-facts">
        <dt>Id</dt>
        <dd>
          <code>{t.id}</code>
        </dd>
        <dt>Type</dt>
        <dd>
          {t.type} {t.direction && `(${t.direction})`}
        </dd>
        <dt>Status</dt>
        <dd data-testid="payment-status">{t.status}</dd>
        {t.failureReason && (
          <>
            <dt>Failure reason</dt>
            <dd>{t.failureReason}</dd>
          </>
        )}
        <dt>Customer</dt>
        <dd>
          {t.customerId?.startsWith('Customer:') ? (
            <Link to={`/customers/${encodeURIComponent(t.customerId)}`}>{t.platformCustomerId}</Link>
          ) : (
            t.platformCustomerId
          )}
        </dd>
        <dt>Sent</dt>
        <dd>{formatMoney(t.sentAmount)}</dd>
        <dt>Received</dt>
        <dd>{formatMoney(t.receivedAmount)}</dd>
        {t.fees !== undefined && (
          <>
            <dt>Fees</dt>
            <dd>
              {formatMinor(t.fees, sendDecimals)} {t.sentAmount?.currency.code}
              {t.platformFees ? ` (platform: ${formatMinor(t.platformFees, sendDecimals)})` : ''}
            </dd>
          </>
        )}
        {t.exchangeRate !== undefined && (
          <>
            <dt>Exchange rate</dt>
            <dd>{t.exchangeRate}</dd>
          </>
        )}
        <dt>Source</dt>
        <dd>
          <code>{t.source?.accountId ?? t.source?.umaAddress ?? t.source?.sourceType ?? '—'}</code>
        </dd>
        <dt>Destination</dt>
        <dd>
          <code>{t.destination?.accountId ?? t.destination?.umaAddress ?? '—'}</code>
        </dd>
        {t.paymentRail && (
          <>
            <dt>Rail</dt>
            <dd>{t.paymentRail}</dd>
          </>
        )}
        {t.reconciliationInstructions && (
          <>
            <dt>Reference</dt>
            <dd>{t.reconciliationInstructions.reference}</dd>
          </>
        )}
        {t.quoteId && (
          <>
            <dt>Quote</dt>
            <dd>
              <code>{t.quoteId}</code>
            </dd>
          </>
        )}
      </dl>
      <h2>Timeline</h2>
      <ol className="timeline">
        <li>
          Created <When at={t.createdAt} />
        </li>
        {t.settledAt && (
          <li>
            Settled <When at={t.settledAt} />
          </li>
        )}
        {t.refund && (
          <li>
            Refund {t.refund.status} ({t.refund.reason ?? 'no reason given'}) <When at={t.refund.initiatedAt} />
            {t.refund.settledAt && (
              <>
                , settled <When at={t.refund.settledAt} />
              </>
            )}
          </li>
        )}
        <li>
          Last change: {t.status} <When at={t.updatedAt} />
        </li>
      </ol>
      {t.rateDetails && <Json value={t.rateDetails} label="rate details" />}
      {session?.temporalUiUrl && (
        <p>
          <a href={temporalLink(session.temporalUiUrl, session.temporalNamespace, t.id)} target="_blank" rel="noreferrer noopener">
            Open its workflows in Temporal UI<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      )}
      {(cancellable || decidable) && (
        <section aria-labelledby="h-actions" className="card">
          <h2 id="h-actions">Actions</h2>
          <Field label="Reason (optional)">{(fid) => <input id={fid} value={reason} maxLength={255} onChange={(e) => setReason(e.target.value)} />}</Field>
          <div className="row">
            {cancellable && (
              <form onSubmit={onAction('cancel')}>
                <WriteButton permission="TRANSACT" disabled={act.isPending}>
                  Cancel payment
                </WriteButton>
              </form>
            )}
            {decidable && (
              <>
                <form onSubmit={onAction('approve')}>
                  <WriteButton permission="TRANSACT" disabled={act.isPending}>
                    Approve
                  </WriteButton>
                </form>
                <form onSubmit={onAction('reject')}>
                  <WriteButton permission="TRANSACT" disabled={act.isPending}>
                    Reject
                  </WriteButton>
                </form>
              </>
            )}
          </div>
          {act.isSuccess && <Done>Done: the payment is now {act.data.status}.</Done>}
          <ErrorMessage error={act.error} />
        </section>
      )}
      <h2>Ledger entries</h2>
      <LedgerEntries transactionId={t.id} settled={FINAL.has(t.status)} />
      <h2>Webhooks it caused</h2>
      <WebhookEvents filters={{ resourceId: t.id }} label="Webhooks of this payment" />
    </>
  );
}

/** GET /transactions/{id}/ledger-entries (beyond the reference): each posting as a debit or a credit. */
function LedgerEntries({ transactionId, settled }: { transactionId: string; settled: boolean }) {
  const entries = useQuery({
    queryKey: ['ledger-entries', transactionId, settled],
    queryFn: () => get<{ data: LedgerEntry[] }>(`/transactions/${encodeURIComponent(transactionId)}/ledger-entries`),
    refetchInterval: settled ? false : POLL_MS,
  });
  if (entries.error) return <ErrorMessage error={entries.error} />;
  if (!entries.data) return <Loading what="ledger entries" />;
  if (entries.data.data.length === 0) return <p className="muted">Nothing has moved in the ledger yet.</p>;
  return (
    <table aria-label="Ledger entries">
      <thead>
        <tr>
          <th scope="col">Posted</th>
          <th scope="col">Entry</th>
          <th scope="col">Account</th>
          <th scope="col" className="num">
            Debit
          </th>
          <th scope="col" className="num">
            Credit
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.data.data.flatMap((entry) =>
          entry.postings.map((p, i) => (
            <tr key={`${entry.id}-${i}`} data-testid="ledger-posting">
              <td>{i === 0 ? <When at={entry.postedAt} /> : ''}</td>
              <td>{i === 0 ? entry.description : ''}</td>
              <td>{p.accountKind === 'INTERNAL_ACCOUNT' ? <code>{p.accountId}</code> : p.accountKind}</td>
              <td className="num">{p.direction === 'DEBIT' ? formatMoney(p.amount) : ''}</td>
              <td className="num">{p.direction === 'CREDIT' ? formatMoney(p.amount) : ''}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
