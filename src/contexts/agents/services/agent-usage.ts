import type { EntityManager } from '@mikro-orm/postgresql';
import { COUNTED_ACTION_STATUSES } from '../domain/agent-actions';
import { policyOf } from '../domain/agent-policy';
import { usageWindows } from '../domain/agent-usage';
import type { Agent } from '../entities';

/** The reference's AgentUsage. */
export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: bigint;
  dailyResetDate: string;
  monthlySpend: bigint;
  monthlyResetMonth: string;
}

/**
 * Usage computed from the agents' actions, never kept as a counter that could drift: today's and
 * this month's actions that count (pending or approved), their amounts in the policy's currency.
 * One query for any number of agents.
 */
export async function usagesOf(
  em: EntityManager,
  agents: Agent[],
  now = new Date(),
  options: { excludingQuoteId?: string } = {},
): Promise<Map<string, AgentUsage>> {
  const windows = usageWindows(now);
  const usages = new Map<string, AgentUsage>();
  for (const agent of agents) {
    usages.set(agent.id, {
      dailyTransactionCount: 0,
      dailySpend: 0n,
      dailyResetDate: windows.dailyResetDate,
      monthlySpend: 0n,
      monthlyResetMonth: windows.monthlyResetMonth,
    });
  }
  if (agents.length === 0) return usages;
  const rows = await em
    .getConnection()
    .execute<{ agent_id: string; spend_currency: string | null; daily_count: string; daily_spend: string; monthly_spend: string }[]>(
      `select agent_id, spend_currency,
            count(*) filter (where created_at >= ?) as daily_count,
            coalesce(sum(spend_amount) filter (where created_at >= ?), 0) as daily_spend,
            coalesce(sum(spend_amount), 0) as monthly_spend
       from agent_actions
      where agent_id in (?) and status in (?) and created_at >= ?${options.excludingQuoteId ? ' and quote_id is distinct from ?' : ''}
      group by agent_id, spend_currency`,
      [
        windows.dayStart,
        windows.dayStart,
        agents.map((a) => a.id),
        [...COUNTED_ACTION_STATUSES],
        windows.monthStart,
        ...(options.excludingQuoteId ? [options.excludingQuoteId] : []),
      ],
    );
  const byId = new Map(agents.map((a) => [a.id, a]));
  for (const row of rows) {
    const usage = usages.get(row.agent_id)!;
    usage.dailyTransactionCount += Number(row.daily_count);
    // Amounts are counted in the currency the policy had when each action was submitted; a policy
    // that changed currency since counts only the actions in its current one.
    if (row.spend_currency !== policyOf(byId.get(row.agent_id)!.policy).spendingLimits.currency) continue;
    usage.dailySpend += BigInt(row.daily_spend);
    usage.monthlySpend += BigInt(row.monthly_spend);
  }
  return usages;
}

/** One agent's usage; `excludingQuoteId`: without the action of that quote (the policy judges an action on what the others used). */
export async function usageOf(em: EntityManager, agent: Agent, now = new Date(), options: { excludingQuoteId?: string } = {}): Promise<AgentUsage> {
  return (await usagesOf(em, [agent], now, options)).get(agent.id)!;
}
