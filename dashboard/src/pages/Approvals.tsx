import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { get, newKey, post, type Page } from '../api';
import { PageTitle } from '../components/Layout';
import { Done, ErrorMessage, Field, Loading, Status, When, WriteButton } from '../components/ui';
import { formatMinor, formatMoney } from '../money';
import { POLL_MS } from '../poll';
import type { Transaction } from '../types';

interface AgentAction {
  id: string;
  agentId: string;
  platformCustomerId: string;
  status: string;
  type: string;
  transferDetails?: { amount: number; currency: string; sourceAccountId: string; destinationAccountId: string };
  quote?: { totalSendingAmount?: number; sendingCurrency?: { code: string; decimals: number } };
  createdAt: string;
}

/** One decision with its optional reason; the reason goes with a rejection. */
function Decide({ label, onDecide, pending }: { label: string; onDecide(decision: 'approve' | 'reject', reason: string): void; pending: boolean }) {
  const [reason, setReason] = useState('');
  return (
    <div className="row">
      <Field label={`Reason for ${label}`}>{(id) => <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={255} />}</Field>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onDecide('approve', reason);
        }}
      >
        <WriteButton permission="TRANSACT" disabled={pending}>
          Approve<span className="visually-hidden"> {label}</span>
        </WriteButton>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onDecide('reject', reason);
        }}
      >
        <WriteButton permission="TRANSACT" disabled={pending}>
          Reject<span className="visually-hidden"> {label}</span>
        </WriteButton>
      </form>
    </div>
  );
}

export default function Approvals() {
  const queryClient = useQueryClient();
  const actions = useQuery({
    queryKey: ['approvals'],
    queryFn: () => get<Page<AgentAction>>('/agents/approvals', { limit: 50 }),
    refetchInterval: POLL_MS,
  });
  const incoming = useQuery({
    queryKey: ['transactions', { type: 'INCOMING', status: 'PENDING' }],
    queryFn: () => get<Page<Transaction>>('/transactions', { type: 'INCOMING', status: 'PENDING', limit: 50 }),
    refetchInterval: POLL_MS,
  });
  const decideAction = useMutation({
    mutationFn: ({ a, decision, reason }: { a: AgentAction; decision: 'approve' | 'reject'; reason: string }) =>
      post<AgentAction>(
        `/agents/${encodeURIComponent(a.agentId)}/actions/${encodeURIComponent(a.id)}/${decision}`,
        decision === 'reject' && reason ? { reason } : {},
        newKey(),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['approvals'] }),
  });
  const decidePayment = useMutation({
    mutationFn: ({ t, decision, reason }: { t: Transaction; decision: 'approve' | 'reject'; reason: string }) =>
      post<Transaction>(`/transactions/${encodeURIComponent(t.id)}/${decision}`, decision === 'reject' && reason ? { reason } : {}, newKey()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['transactions'] }),
  });
  const waiting = actions.data?.data.filter((a) => a.status === 'PENDING_APPROVAL') ?? [];
  return (
    <>
      <PageTitle title="Approvals">Approvals</PageTitle>
      <section aria-labelledby="h-agent-actions">
        <h2 id="h-agent-actions">Agents' actions waiting</h2>
        <ErrorMessage error={actions.error} />
        {!actions.data && !actions.error && <Loading what="agent actions" />}
        {actions.data && waiting.length === 0 && <p className="muted">No agent action is waiting.</p>}
        <ul className="plain">
          {waiting.map((a) => (
            <li key={a.id} className="card" data-testid="agent-action">
              <p>
                <strong>{a.type}</strong> by agent <code>{a.agentId}</code> for {a.platformCustomerId}: <Status value={a.status} />{' '}
                {a.transferDetails && `${formatMinor(a.transferDetails.amount)} ${a.transferDetails.currency}`}
                {a.quote?.totalSendingAmount !== undefined &&
                  `${formatMinor(a.quote.totalSendingAmount, a.quote.sendingCurrency?.decimals ?? 2)} ${a.quote.sendingCurrency?.code ?? ''}`}{' '}
                <small>
                  <When at={a.createdAt} />
                </small>
              </p>
              <Decide label={`action ${a.id}`} pending={decideAction.isPending} onDecide={(decision, reason) => decideAction.mutate({ a, decision, reason })} />
            </li>
          ))}
        </ul>
        {decideAction.isSuccess && <Done>The action is now {decideAction.data.status}.</Done>}
        <ErrorMessage error={decideAction.error} />
      </section>
      <section aria-labelledby="h-incoming">
        <h2 id="h-incoming">Incoming payments waiting</h2>
        <ErrorMessage error={incoming.error} />
        {!incoming.data && !incoming.error && <Loading what="incoming payments" />}
        {incoming.data && incoming.data.data.length === 0 && <p className="muted">No incoming payment is waiting.</p>}
        <ul className="plain">
          {incoming.data?.data.map((t) => (
            <li key={t.id} className="card">
              <p>
                <Link to={`/payments/${encodeURIComponent(t.id)}`}>{t.id}</Link>: {formatMoney(t.receivedAmount)} for {t.platformCustomerId}{' '}
                <When at={t.createdAt} />
              </p>
              <Decide
                label={`payment ${t.id}`}
                pending={decidePayment.isPending}
                onDecide={(decision, reason) => decidePayment.mutate({ t, decision, reason })}
              />
            </li>
          ))}
        </ul>
        {decidePayment.isSuccess && <Done>The payment is now {decidePayment.data.status}.</Done>}
        <ErrorMessage error={decidePayment.error} />
      </section>
    </>
  );
}
