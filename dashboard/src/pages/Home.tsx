import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router';
import { get } from '../api';
import { PageTitle } from '../components/Layout';
import { ErrorMessage, Loading } from '../components/ui';
import { POLL_MS } from '../poll';
import { formatMinor } from '../money';
import { codeOf, decimalsOfRef, type Metrics } from '../metrics';

// recharts is the heaviest library here: loaded with the Home page's charts only.
const Charts = lazy(() => import('../components/Charts'));

const WINDOWS = [
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
] as const;

export default function Home() {
  const [window, setWindow] = useState<'24h' | '7d' | '30d'>('24h');
  const metrics = useQuery({
    queryKey: ['metrics', window],
    queryFn: () => get<Metrics>('/dashboard/metrics', { window }),
    refetchInterval: POLL_MS,
  });
  const m = metrics.data;
  return (
    <>
      <PageTitle title="Home">Home</PageTitle>
      <fieldset className="segmented">
        <legend>Period</legend>
        {WINDOWS.map((w) => (
          <label key={w.value}>
            <input type="radio" name="window" value={w.value} checked={window === w.value} onChange={() => setWindow(w.value)} />
            {w.label}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={metrics.error} />
      {!m && !metrics.error && <Loading what="the figures" />}
      {m && (
        <div className="cards">
          <section aria-labelledby="h-balances" className="card">
            <h2 id="h-balances">Balances</h2>
            {m.balances.length === 0 ? (
              <p className="muted">No accounts yet.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Currency</th>
                    <th scope="col" className="num">
                      Available
                    </th>
                    <th scope="col" className="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {m.balances.map((b) => (
                    <tr key={codeOf(b.currency)}>
                      <th scope="row">{codeOf(b.currency)}</th>
                      <td className="num">{formatMinor(b.available, decimalsOfRef(b.currency))}</td>
                      <td className="num">{formatMinor(b.total, decimalsOfRef(b.currency))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="h-webhooks" className="card">
            <h2 id="h-webhooks">Webhook health</h2>
            <p>
              Endpoint:{' '}
              <strong className={m.webhooks.endpointPaused ? 'bad' : 'good'}>{m.webhooks.endpointPaused ? 'paused by its breaker' : 'delivering'}</strong>
            </p>
            <p>
              Failing deliveries: <strong>{String(m.webhooks.failing)}</strong>
            </p>
            <Link to="/webhooks">Webhook events</Link>
          </section>
          <section aria-labelledby="h-approvals" className="card">
            <h2 id="h-approvals">Approvals waiting</h2>
            <p>
              Agent actions: <strong>{m.approvalsWaiting.agentActions}</strong>
            </p>
            <p>
              Incoming payments: <strong>{m.approvalsWaiting.incomingPayments}</strong>
            </p>
            <Link to="/approvals">Review approvals</Link>
          </section>
          <section aria-labelledby="h-payments" className="card wide">
            <h2 id="h-payments">Payments over {WINDOWS.find((w) => w.value === window)!.label}</h2>
            <Suspense fallback={<Loading what="the charts" />}>
              <Charts metrics={m} />
            </Suspense>
          </section>
        </div>
      )}
    </>
  );
}
