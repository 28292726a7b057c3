import { type Minor } from '../../../domain/money';

/** A signed movement on one ledger account: positive raises the balance, negative lowers it. */
export interface PostingLine {
  accountId: string;
  currency: string;
  amount: Minor;
}

export interface AccountState {
  id: string;
  currency: string;
  balance: Minor;
  allowNegative: boolean;
}

export type LedgerRuleViolation =
  | { kind: 'EMPTY_ENTRY' }
  | { kind: 'ZERO_AMOUNT'; accountId: string }
  | { kind: 'UNBALANCED'; currency: string; imbalance: Minor }
  | { kind: 'CURRENCY_MISMATCH'; accountId: string; accountCurrency: string; postingCurrency: string }
  | { kind: 'UNKNOWN_ACCOUNT'; accountId: string }
  | { kind: 'INSUFFICIENT_FUNDS'; accountId: string; balance: Minor; change: Minor };

/**
 * Whether an account keeps a stored running balance, updated under its row lock by every entry.
 * A protected account must (the lock is what stops two concurrent debits overdrawing it). An
 * account that may go negative is shared by many customers' payments (a platform's pending,
 * clearing, fee and funding accounts): it has nothing to guard, so entries post to it without
 * locking or writing its row, and its balance is the sum of its postings.
 */
export function keepsRunningBalance(account: { allowNegative: boolean }): boolean {
  return !account.allowNegative;
}

/** Checks the shape of an entry on its own: at least two lines, no zeros, zero-sum per currency. */
export function checkEntry(lines: readonly PostingLine[]): LedgerRuleViolation[] {
  if (lines.length < 2) return [{ kind: 'EMPTY_ENTRY' }];
  const violations: LedgerRuleViolation[] = [];
  const totals = new Map<string, Minor>();
  for (const line of lines) {
    if (line.amount === 0n) violations.push({ kind: 'ZERO_AMOUNT', accountId: line.accountId });
    totals.set(line.currency, (totals.get(line.currency) ?? 0n) + line.amount);
  }
  for (const [currency, imbalance] of totals) {
    if (imbalance !== 0n) violations.push({ kind: 'UNBALANCED', currency, imbalance });
  }
  return violations;
}

/**
 * Applies an entry to the current account states and returns the new balances, or the
 * rules it breaks. Pure: the caller holds the row locks of the accounts that keep a running
 * balance and writes theirs; the others' new balance here is only relative to what was given.
 */
export function applyEntry(
  accounts: readonly AccountState[],
  lines: readonly PostingLine[],
): { ok: true; balances: Map<string, Minor> } | { ok: false; violations: LedgerRuleViolation[] } {
  const violations = checkEntry(lines);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const balances = new Map(accounts.map((a) => [a.id, a.balance]));
  const change = new Map<string, Minor>();
  for (const line of lines) {
    const account = byId.get(line.accountId);
    if (!account) {
      violations.push({ kind: 'UNKNOWN_ACCOUNT', accountId: line.accountId });
      continue;
    }
    if (account.currency !== line.currency) {
      violations.push({ kind: 'CURRENCY_MISMATCH', accountId: account.id, accountCurrency: account.currency, postingCurrency: line.currency });
      continue;
    }
    change.set(account.id, (change.get(account.id) ?? 0n) + line.amount);
  }
  for (const [id, delta] of change) {
    const account = byId.get(id)!;
    const next = account.balance + delta;
    if (next < 0n && !account.allowNegative) {
      violations.push({ kind: 'INSUFFICIENT_FUNDS', accountId: id, balance: account.balance, change: delta });
    }
    balances.set(id, next);
  }
  return violations.length > 0 ? { ok: false, violations } : { ok: true, balances };
}

/** What an account holds in all: available funds plus money held for pending movements. */
export function totalBalance(account: { balance: Minor; held: Minor }): Minor {
  return account.balance + account.held;
}

/**
 * How a credit that must be given back is taken: from the account it went to as far as its
 * available balance reaches (never below zero), the rest as a shortfall someone else carries.
 */
export function takeBack(available: Minor, amount: Minor): { fromAccount: Minor; shortfall: Minor } {
  const fromAccount = available <= 0n ? 0n : available < amount ? available : amount;
  return { fromAccount, shortfall: amount - fromAccount };
}

/** A movement of `amount` from one account to another in the same currency. */
export function transfer(fromAccountId: string, toAccountId: string, currency: string, amount: Minor): PostingLine[] {
  if (amount <= 0n) throw new RangeError('a transfer moves a positive amount');
  return [
    { accountId: fromAccountId, currency, amount: -amount },
    { accountId: toAccountId, currency, amount },
  ];
}

export interface AuditInput {
  entries: { id: string; lines: PostingLine[] }[];
  accounts: (AccountState & { held: Minor })[];
  /** Sum of postings per account, as computed independently of the stored balances. */
  postedTotals: Map<string, Minor>;
}

/** An account's balance: its stored running balance, or the sum of its postings for an account that keeps none. */
export function auditedBalance(account: { id: string; balance: Minor; allowNegative: boolean }, postedTotals: Map<string, Minor>): Minor {
  return keepsRunningBalance(account) ? account.balance : (postedTotals.get(account.id) ?? 0n);
}

export interface AuditFinding {
  kind: 'UNBALANCED_ENTRY' | 'BALANCE_MISMATCH' | 'NEGATIVE_BALANCE' | 'NEGATIVE_HOLD' | 'SHARED_ACCOUNT_HELD';
  subject: string;
  detail: string;
}

/** The whole-ledger audit: every entry balances, every balance equals its postings. */
export function auditLedger(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const entry of input.entries) {
    for (const v of checkEntry(entry.lines)) {
      findings.push({ kind: 'UNBALANCED_ENTRY', subject: entry.id, detail: JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) });
    }
  }
  for (const account of input.accounts) {
    const posted = input.postedTotals.get(account.id) ?? 0n;
    if (!keepsRunningBalance(account)) {
      // Its balance is its postings by definition (the stored column is not kept); a hold there
      // would have been written without the row lock postEntry never takes on it.
      if (account.held !== 0n)
        findings.push({ kind: 'SHARED_ACCOUNT_HELD', subject: account.id, detail: `held ${account.held} on an account that keeps no running balance` });
      continue;
    }
    if (posted !== account.balance) {
      findings.push({ kind: 'BALANCE_MISMATCH', subject: account.id, detail: `stored ${account.balance} but postings sum to ${posted}` });
    }
    if (!account.allowNegative && account.balance < 0n) {
      findings.push({ kind: 'NEGATIVE_BALANCE', subject: account.id, detail: `balance ${account.balance}` });
    }
    if (account.held < 0n) findings.push({ kind: 'NEGATIVE_HOLD', subject: account.id, detail: `held ${account.held}` });
  }
  return findings;
}

export type PostingDirection = 'DEBIT' | 'CREDIT';

/**
 * A signed posting as a bookkeeper reads it. Every account here keeps its balance as credits less
 * debits (a customer's balance is money the service owes, the outside world's accounts mirror
 * it), so a posting that raises the balance is a CREDIT and one that lowers it a DEBIT; the amount
 * is then its size. An entry's debits equal its credits in each currency.
 */
export function postingSide(amount: Minor): { direction: PostingDirection; amount: Minor } {
  return amount < 0n ? { direction: 'DEBIT', amount: -amount } : { direction: 'CREDIT', amount };
}
