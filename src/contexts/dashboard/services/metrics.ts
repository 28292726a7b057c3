import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../platforms';
import { METRICS_WINDOWS, type MetricsWindow } from '../domain/metrics-windows';

/**
 * The home page's figures for the caller's platform: balances per currency (its internal
 * accounts), payments by status and their volume per bucket over the window, webhook health and
 * approvals waiting. Amounts are bigint minor units, summed by PostgreSQL (numeric, never float),
 * read back as text and returned as bigint. Each query is on the platform's index.
 */
export async function dashboardMetrics(em: EntityManager, caller: Caller, window: MetricsWindow, now: number) {
  const { ms, bucket } = METRICS_WINDOWS[window];
  const since = new Date(now - ms);
  const connection = em.getConnection();
  const [balances, statuses, volume, webhooks, paused, approvals] = await Promise.all([
    connection.execute<{ currency: string; available: string; total: string }[]>(
      `select currency, sum(balance)::text as available, sum(balance + held)::text as total
         from (select l.currency, l.held,
                      case when l.allow_negative then (select coalesce(sum(p.amount), 0) from postings p where p.account_id = l.id) else l.balance end as balance
                 from internal_accounts i join ledger_accounts l on l.id = i.id where i.platform_id = ?) accounts
        group by currency order by currency`,
      [caller.platformId],
    ),
    connection.execute<{ status: string; n: string }[]>(
      'select status, count(*)::text as n from transactions where platform_id = ? and created_at >= ? group by status',
      [caller.platformId, since],
    ),
    connection.execute<{ bucket_start: Date; currency: string; n: string; amount: string }[]>(
      `select date_trunc('${bucket}', created_at, 'UTC') as bucket_start, coalesce(sent_currency, received_currency) as currency,
              count(*)::text as n, sum(coalesce(sent_amount, received_amount))::text as amount
         from transactions where platform_id = ? and created_at >= ?
        group by 1, 2 order by 1, 2`,
      [caller.platformId, since],
    ),
    connection.execute<{ n: string }[]>(
      `select count(*)::text as n from webhook_events
        where platform_id = ? and environment = ? and created_at >= ? and (state = 'FAILED' or (state = 'PENDING' and attempts > 0))`,
      [caller.platformId, caller.environment, since],
    ),
    connection.execute<{ paused: boolean }[]>(
      `select exists (select 1 from platforms p join webhook_endpoint_breakers b on b.platform_id = p.id and b.endpoint_key = md5(p.webhook_endpoint)
                       where p.id = ? and b.paused_until > ?) as paused`,
      [caller.platformId, new Date(now)],
    ),
    connection.execute<{ agent_actions: string; incoming_payments: string }[]>(
      `select (select count(*) from agent_actions where platform_id = ? and status = 'PENDING_APPROVAL' and approval_required)::text as agent_actions,
              (select count(*) from transactions where platform_id = ? and type = 'INCOMING' and status = 'PENDING')::text as incoming_payments`,
      [caller.platformId, caller.platformId],
    ),
  ]);
  return {
    window,
    balances: balances.map((b) => ({ currency: b.currency, available: BigInt(b.available), total: BigInt(b.total) })),
    payments: {
      byStatus: Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)])),
      volume: volume.map((v) => ({ bucketStart: new Date(v.bucket_start).toISOString(), currency: v.currency, count: Number(v.n), amount: BigInt(v.amount) })),
    },
    webhooks: { failing: Number(webhooks[0]!.n), endpointPaused: !!paused[0]?.paused },
    approvalsWaiting: { agentActions: Number(approvals[0]!.agent_actions), incomingPayments: Number(approvals[0]!.incoming_payments) },
  };
}
