import {
  applyEntry,
  auditedBalance,
  auditLedger,
  checkEntry,
  keepsRunningBalance,
  takeBack,
  totalBalance,
  transfer,
  type AccountState,
  type AuditInput,
  type PostingLine,
} from '../../src/contexts/ledger/domain/ledger';

/** 2^53 + 1: the first integer a JS number cannot hold. */
const BIG = 9_007_199_254_740_993n;

const line = (accountId: string, currency: string, amount: bigint): PostingLine => ({ accountId, currency, amount });
const account = (id: string, currency: string, balance: bigint, allowNegative = false): AccountState => ({ id, currency, balance, allowNegative });

describe('checkEntry', () => {
  test('an entry without lines is EMPTY_ENTRY', () => {
    expect(checkEntry([])).toEqual([{ kind: 'EMPTY_ENTRY' }]);
  });

  test('a one-line entry is EMPTY_ENTRY, even a non-zero one', () => {
    expect(checkEntry([line('A', 'USD', 100n)])).toEqual([{ kind: 'EMPTY_ENTRY' }]);
  });

  test('a balanced two-line entry has no violations', () => {
    expect(checkEntry(transfer('A', 'B', 'USD', 100n))).toEqual([]);
  });

  test('a zero-amount line is reported with its account even when the entry balances', () => {
    expect(checkEntry([line('A', 'USD', -5n), line('B', 'USD', 5n), line('C', 'USD', 0n)])).toEqual([{ kind: 'ZERO_AMOUNT', accountId: 'C' }]);
  });

  test('two zero lines: both reported, and the entry is otherwise balanced', () => {
    expect(checkEntry([line('A', 'USD', 0n), line('B', 'USD', 0n)])).toEqual([
      { kind: 'ZERO_AMOUNT', accountId: 'A' },
      { kind: 'ZERO_AMOUNT', accountId: 'B' },
    ]);
  });

  test('a single-currency imbalance is reported with its signed amount', () => {
    expect(checkEntry([line('A', 'USD', -100n), line('B', 'USD', 99n)])).toEqual([{ kind: 'UNBALANCED', currency: 'USD', imbalance: -1n }]);
    expect(checkEntry([line('A', 'USD', -99n), line('B', 'USD', 100n)])).toEqual([{ kind: 'UNBALANCED', currency: 'USD', imbalance: 1n }]);
  });

  test('a multi-currency entry balanced per currency (an FX conversion) is valid', () => {
    const fx = [line('customer-usd', 'USD', -10_000n), line('fx-usd', 'USD', 10_000n), line('fx-eur', 'EUR', -9_200n), line('customer-eur', 'EUR', 9_200n)];
    expect(checkEntry(fx)).toEqual([]);
  });

  test('an entry balanced overall but not per currency is reported once per currency', () => {
    const violations = checkEntry([line('A', 'USD', -100n), line('B', 'EUR', 100n)]);
    expect(violations).toHaveLength(2);
    expect(violations).toEqual(
      expect.arrayContaining([
        { kind: 'UNBALANCED', currency: 'USD', imbalance: -100n },
        { kind: 'UNBALANCED', currency: 'EUR', imbalance: 100n },
      ]),
    );
  });

  test('only the unbalanced currency is reported in a mixed entry', () => {
    const violations = checkEntry([line('A', 'USD', -100n), line('B', 'USD', 100n), line('C', 'EUR', -7n), line('D', 'EUR', 8n)]);
    expect(violations).toEqual([{ kind: 'UNBALANCED', currency: 'EUR', imbalance: 1n }]);
  });

  test('sums beyond 2^53 are exact: an off-by-one at that magnitude is caught', () => {
    expect(checkEntry([line('A', 'USD', -BIG), line('B', 'USD', BIG)])).toEqual([]);
    // As doubles, 2^53 + 1 and 2^53 are the same number; as bigints they are not.
    expect(checkEntry([line('A', 'USD', -BIG), line('B', 'USD', BIG - 1n)])).toEqual([{ kind: 'UNBALANCED', currency: 'USD', imbalance: -1n }]);
  });
});

describe('applyEntry', () => {
  test('debits and credits the accounts and leaves the others unchanged', () => {
    const result = applyEntry([account('A', 'USD', 1_000n), account('B', 'USD', 50n), account('C', 'USD', 7n)], transfer('A', 'B', 'USD', 300n));
    expect(result).toEqual({
      ok: true,
      balances: new Map([
        ['A', 700n],
        ['B', 350n],
        ['C', 7n],
      ]),
    });
  });

  test('balances above 2^53 stay exact', () => {
    const result = applyEntry([account('A', 'BTC', BIG * 2n), account('B', 'BTC', BIG)], transfer('A', 'B', 'BTC', 1n));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.balances.get('A')).toBe(18_014_398_509_481_985n);
    expect(result.balances.get('B')).toBe(9_007_199_254_740_994n);
  });

  test('may drain a protected account to exactly zero', () => {
    const result = applyEntry([account('A', 'USD', 300n), account('B', 'USD', 0n)], transfer('A', 'B', 'USD', 300n));
    expect(result).toEqual({
      ok: true,
      balances: new Map([
        ['A', 0n],
        ['B', 300n],
      ]),
    });
  });

  test('refuses to take a protected account below zero: INSUFFICIENT_FUNDS with balance and change', () => {
    const result = applyEntry([account('A', 'USD', 299n), account('B', 'USD', 0n)], transfer('A', 'B', 'USD', 300n));
    expect(result).toEqual({ ok: false, violations: [{ kind: 'INSUFFICIENT_FUNDS', accountId: 'A', balance: 299n, change: -300n }] });
  });

  test('an allowNegative account (e.g. a funding source) may go below zero', () => {
    const result = applyEntry([account('funding', 'USD', 0n, true), account('B', 'USD', 0n)], transfer('funding', 'B', 'USD', BIG));
    expect(result).toEqual({
      ok: true,
      balances: new Map([
        ['funding', -BIG],
        ['B', BIG],
      ]),
    });
  });

  test('a line in another currency than its account is CURRENCY_MISMATCH', () => {
    const result = applyEntry([account('A', 'USD', 1_000n), account('B', 'EUR', 0n)], transfer('A', 'B', 'USD', 100n));
    expect(result).toEqual({
      ok: false,
      violations: [{ kind: 'CURRENCY_MISMATCH', accountId: 'B', accountCurrency: 'EUR', postingCurrency: 'USD' }],
    });
  });

  test('a line on an account not in the state is UNKNOWN_ACCOUNT', () => {
    const result = applyEntry([account('A', 'USD', 1_000n)], transfer('A', 'ghost', 'USD', 100n));
    expect(result).toEqual({ ok: false, violations: [{ kind: 'UNKNOWN_ACCOUNT', accountId: 'ghost' }] });
  });

  test('several lines on one account are netted before the funds check', () => {
    // A pays B 500 and B pays A 500 back in the same entry: A never needs the money.
    const lines = [line('A', 'USD', -500n), line('B', 'USD', 500n), line('B', 'USD', -500n), line('A', 'USD', 500n)];
    const result = applyEntry([account('A', 'USD', 0n), account('B', 'USD', 0n)], lines);
    expect(result).toEqual({
      ok: true,
      balances: new Map([
        ['A', 0n],
        ['B', 0n],
      ]),
    });
  });

  test('several lines on one account add up: the net change is what is checked and applied', () => {
    const accounts = [account('A', 'USD', 100n), account('B', 'USD', 0n)];
    // Two debits of 60 are 120 in all, more than A holds, though each alone would fit.
    const overdraw = [line('A', 'USD', -60n), line('A', 'USD', -60n), line('B', 'USD', 120n)];
    expect(applyEntry(accounts, overdraw)).toEqual({ ok: false, violations: [{ kind: 'INSUFFICIENT_FUNDS', accountId: 'A', balance: 100n, change: -120n }] });
    const fits = [line('A', 'USD', -40n), line('A', 'USD', -60n), line('B', 'USD', 100n)];
    expect(applyEntry(accounts, fits)).toEqual({
      ok: true,
      balances: new Map([
        ['A', 0n],
        ['B', 100n],
      ]),
    });
  });

  test('shape violations from checkEntry are reported too', () => {
    const result = applyEntry([account('A', 'USD', 1_000n), account('B', 'USD', 0n)], [line('A', 'USD', -100n), line('B', 'USD', 90n)]);
    expect(result).toEqual({ ok: false, violations: [{ kind: 'UNBALANCED', currency: 'USD', imbalance: -10n }] });
  });

  test('does not mutate the account states it is given', () => {
    const accounts = [account('A', 'USD', 1_000n), account('B', 'USD', 0n)];
    applyEntry(accounts, transfer('A', 'B', 'USD', 100n));
    expect(accounts).toEqual([account('A', 'USD', 1_000n), account('B', 'USD', 0n)]);
  });
});

describe('transfer', () => {
  test('moves a positive amount from one account to the other', () => {
    expect(transfer('A', 'B', 'USD', BIG)).toEqual([line('A', 'USD', -BIG), line('B', 'USD', BIG)]);
  });

  test('throws on a zero or negative amount', () => {
    expect(() => transfer('A', 'B', 'USD', 0n)).toThrow(RangeError);
    expect(() => transfer('A', 'B', 'USD', -1n)).toThrow(RangeError);
  });
});

describe('auditLedger', () => {
  function cleanLedger(): AuditInput {
    const entries = [
      { id: 'JournalEntry:1', lines: transfer('funding', 'A', 'USD', BIG) },
      { id: 'JournalEntry:2', lines: transfer('A', 'B', 'USD', 1_000n) },
    ];
    const accounts = [
      { ...account('funding', 'USD', -BIG, true), held: 0n },
      { ...account('A', 'USD', BIG - 1_000n), held: 10n },
      { ...account('B', 'USD', 1_000n), held: 0n },
    ];
    const postedTotals = new Map<string, bigint>();
    for (const entry of entries) for (const l of entry.lines) postedTotals.set(l.accountId, (postedTotals.get(l.accountId) ?? 0n) + l.amount);
    return { entries, accounts, postedTotals };
  }

  test('a clean ledger (including an allowed negative funding account) has no findings', () => {
    expect(auditLedger(cleanLedger())).toEqual([]);
  });

  test('a stored balance that differs from its postings is BALANCE_MISMATCH, even by 1 above 2^53', () => {
    const input = cleanLedger();
    input.accounts[1]!.balance += 1n;
    const findings = auditLedger(input);
    expect(findings).toEqual([{ kind: 'BALANCE_MISMATCH', subject: 'A', detail: expect.any(String) }]);
    expect(findings[0]!.detail).toContain((BIG - 999n).toString());
    expect(findings[0]!.detail).toContain((BIG - 1_000n).toString());
  });

  test('an account with no postings must have a zero balance', () => {
    const input = cleanLedger();
    input.accounts.push({ ...account('C', 'USD', 5n), held: 0n });
    expect(auditLedger(input)).toEqual([{ kind: 'BALANCE_MISMATCH', subject: 'C', detail: expect.any(String) }]);
  });

  test('an unbalanced entry is reported with its id', () => {
    const input = cleanLedger();
    input.entries.push({ id: 'JournalEntry:bad', lines: [line('A', 'USD', -5n), line('B', 'USD', 4n)] });
    const findings = auditLedger(input);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'UNBALANCED_ENTRY', subject: 'JournalEntry:bad' });
    expect(JSON.parse(findings[0]!.detail)).toEqual({ kind: 'UNBALANCED', currency: 'USD', imbalance: '-1' });
  });

  test('a negative balance on a protected account is NEGATIVE_BALANCE', () => {
    const input = cleanLedger();
    // Postings agree with it, so only the sign is wrong.
    input.entries.push({ id: 'JournalEntry:3', lines: transfer('B', 'A', 'USD', 1_001n) });
    input.postedTotals.set('B', -1n);
    input.postedTotals.set('A', BIG + 1n);
    input.accounts[2]!.balance = -1n;
    input.accounts[1]!.balance = BIG + 1n;
    expect(auditLedger(input)).toEqual([{ kind: 'NEGATIVE_BALANCE', subject: 'B', detail: 'balance -1' }]);
  });

  test("a shared account's balance is its postings: its stored column is not compared", () => {
    const input = cleanLedger();
    input.accounts[0]!.balance = 0n;
    expect(auditLedger(input)).toEqual([]);
    expect(auditedBalance(input.accounts[0]!, input.postedTotals)).toBe(-BIG);
    expect(auditedBalance(input.accounts[1]!, input.postedTotals)).toBe(BIG - 1_000n);
  });

  test('a hold on a shared account (written without its row lock) is SHARED_ACCOUNT_HELD', () => {
    const input = cleanLedger();
    input.accounts[0]!.held = 5n;
    expect(auditLedger(input)).toEqual([{ kind: 'SHARED_ACCOUNT_HELD', subject: 'funding', detail: expect.any(String) }]);
  });

  test('a negative hold is NEGATIVE_HOLD', () => {
    const input = cleanLedger();
    input.accounts[2]!.held = -3n;
    expect(auditLedger(input)).toEqual([{ kind: 'NEGATIVE_HOLD', subject: 'B', detail: 'held -3' }]);
  });
});

describe('keepsRunningBalance', () => {
  test('only a protected account keeps a locked running balance; one that may go negative is derived from its postings', () => {
    expect(keepsRunningBalance({ allowNegative: false })).toBe(true);
    expect(keepsRunningBalance({ allowNegative: true })).toBe(false);
  });
});

describe('totalBalance', () => {
  test('is available plus held, exactly, beyond 2^53', () => {
    expect(totalBalance({ balance: 9_007_199_254_740_993n, held: 7n })).toBe(9_007_199_254_741_000n);
    expect(totalBalance({ balance: 0n, held: 0n })).toBe(0n);
  });
});

describe('takeBack', () => {
  test('all of it while the account holds enough, no shortfall', () => {
    expect(takeBack(10_000n, 9_975n)).toEqual({ fromAccount: 9_975n, shortfall: 0n });
    expect(takeBack(9_975n, 9_975n)).toEqual({ fromAccount: 9_975n, shortfall: 0n });
  });
  test('what is left once part was spent; the rest is the shortfall, never below zero', () => {
    expect(takeBack(4_975n, 9_975n)).toEqual({ fromAccount: 4_975n, shortfall: 5_000n });
    expect(takeBack(0n, 9_975n)).toEqual({ fromAccount: 0n, shortfall: 9_975n });
    expect(takeBack(-5n, 100n)).toEqual({ fromAccount: 0n, shortfall: 100n });
  });
  test('the two parts always add up to the amount', () => {
    // A seeded linear congruential generator: the same cases on every run.
    let seed = 20261123n;
    const next = (bound: bigint) => ((seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n), seed % bound);
    for (let i = 0; i < 1000; i++) {
      const available = next(2_000_000n) - 100_000n;
      const amount = next(1_000_000n);
      const { fromAccount, shortfall } = takeBack(available, amount);
      expect(fromAccount + shortfall).toBe(amount);
      expect(fromAccount >= 0n && fromAccount <= (available > 0n ? available : 0n)).toBe(true);
    }
  });
});
