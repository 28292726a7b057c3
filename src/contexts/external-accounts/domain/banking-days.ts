/**
 * Banking days for the US bank validation window: Monday to Friday in UTC. (Federal Reserve
 * holidays are not modelled; the window only gets a day longer around one.)
 */
export function isBankingDay(date: Date): boolean {
  const day = date.getUTCDay();
  return day !== 0 && day !== 6;
}

/**
 * The moment `days` banking days after `start`: the same time of day on the `days`-th banking day
 * that follows. A start on a weekend counts from the next Monday's opening, as an ACH file
 * submitted then is only processed on Monday.
 */
export function addBankingDays(start: Date, days: number): Date {
  let cursor = new Date(start.getTime());
  if (!isBankingDay(cursor)) {
    while (!isBankingDay(cursor)) cursor = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth(), cursor.getUTCDate() + 1));
  }
  let left = days;
  while (left > 0) {
    cursor = new Date(cursor.getTime() + 24 * 3600 * 1000);
    if (isBankingDay(cursor)) left -= 1;
  }
  return cursor;
}
