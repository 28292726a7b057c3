import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMinor } from '../money';
import { codeOf, decimalsOfRef, type Metrics } from '../metrics';

const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];

function statusRows(byStatus: Metrics['payments']['byStatus']): { status: string; count: number }[] {
  return Array.isArray(byStatus) ? byStatus : Object.entries(byStatus).map(([status, count]) => ({ status, count }));
}

/**
 * Counts by status and volume per bucket and currency. Each chart has a table beside it with the
 * same figures (screen readers, and exact amounts: the bars are drawn from floats, the table is not).
 */
export default function Charts({ metrics }: { metrics: Metrics }) {
  const statuses = statusRows(metrics.payments.byStatus);
  const currencies = [...new Set(metrics.payments.volume.map((v) => codeOf(v.currency)))];
  const decimals = new Map(metrics.payments.volume.map((v) => [codeOf(v.currency), decimalsOfRef(v.currency)]));
  const buckets = new Map<string, Record<string, number | string>>();
  for (const v of metrics.payments.volume) {
    const row = buckets.get(v.bucketStart) ?? {
      bucket: new Date(v.bucketStart).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit' }),
    };
    const d = decimalsOfRef(v.currency);
    row[codeOf(v.currency)] = Number(BigInt(v.amount)) / 10 ** d;
    buckets.set(v.bucketStart, row);
  }
  const volume = [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, r]) => r);
  return (
    <div className="charts">
      <figure>
        <figcaption>Payments by status</figcaption>
        <div className="chart" aria-hidden="true">
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={statuses} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="status" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Bar dataKey="count" fill={COLORS[0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <table className="compact">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Payments
              </th>
            </tr>
          </thead>
          <tbody>
            {statuses.map((s) => (
              <tr key={s.status}>
                <th scope="row">{s.status}</th>
                <td className="num">{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figure>
      <figure>
        <figcaption>Volume</figcaption>
        {volume.length === 0 ? (
          <p className="muted">No payments in this period.</p>
        ) : (
          <div className="chart" aria-hidden="true">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={volume} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="bucket" />
                <YAxis />
                <Tooltip />
                <Legend />
                {currencies.map((c, i) => (
                  <Bar key={c} dataKey={c} fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
        <table className="compact">
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col" className="num">
                Payments
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((c) => {
              const rows = metrics.payments.volume.filter((v) => codeOf(v.currency) === c);
              const total = rows.reduce((sum, v) => sum + BigInt(v.amount), 0n);
              return (
                <tr key={c}>
                  <th scope="row">{c}</th>
                  <td className="num">{rows.reduce((n, v) => n + v.count, 0)}</td>
                  <td className="num">{formatMinor(total, decimals.get(c) ?? 2)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </figure>
    </div>
  );
}
