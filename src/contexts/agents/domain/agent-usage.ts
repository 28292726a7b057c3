/** The windows AgentUsage counts over (UTC): today and this month, with the dates they reset. */
export interface UsageWindows {
  dayStart: Date;
  monthStart: Date;
  /** The next day, `YYYY-MM-DD`. */
  dailyResetDate: string;
  /** The next month, `YYYY-MM`. */
  monthlyResetMonth: string;
}

export function usageWindows(now: Date): UsageWindows {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextDay = new Date(dayStart.getTime() + 24 * 60 * 60 * 1000);
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return {
    dayStart,
    monthStart,
    dailyResetDate: nextDay.toISOString().slice(0, 10),
    monthlyResetMonth: nextMonth.toISOString().slice(0, 7),
  };
}
