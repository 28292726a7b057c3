import { cardLimitRefusal, planCardChange } from '../../src/contexts/cards/domain/card-state';
import {
  authorizationAmounts,
  declineReason,
  financialAmounts,
  planAdvice,
  planClearing,
  planExpiry,
  planReturn,
  planReturnReversal,
  type CardAmounts,
} from '../../src/contexts/cards/domain/card-transactions';
import { auditCardLedger } from '../../src/contexts/cards/domain/card-audit';
import { movementLines } from '../../src/contexts/cards/services/card-ledger';
import { luhnValid, newSandboxPan, revealToken, verifyRevealToken } from '../../src/contexts/cards/domain/card-secrets';

describe('card state machine', () => {
  test.each([
    ['ACTIVE', 'FROZEN'],
    ['FROZEN', 'ACTIVE'],
    ['ACTIVE', 'CLOSED'],
    ['FROZEN', 'CLOSED'],
  ] as const)('%s → %s is allowed', (from, to) => {
    const plan = planCardChange(from, null, { state: to });
    expect(plan).toMatchObject({ ok: true, state: to, stateChanged: true, stateReason: to === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null });
  });

  test.each([
    ['ACTIVE', 'ACTIVE'],
    ['FROZEN', 'FROZEN'],
    ['PROCESSING', 'ACTIVE'],
    ['PROCESSING', 'FROZEN'],
    ['PROCESSING', 'CLOSED'],
    ['PENDING_KYC', 'ACTIVE'],
  ] as const)('%s → %s is INVALID_STATE_TRANSITION', (from, to) => {
    expect(planCardChange(from, null, { state: to })).toMatchObject({ ok: false, code: 'INVALID_STATE_TRANSITION' });
  });

  test('closing a closed card is CARD_ALREADY_CLOSED; any other change of it CARD_NOT_MUTABLE', () => {
    expect(planCardChange('CLOSED', 'CLOSED_BY_PLATFORM', { state: 'CLOSED' })).toMatchObject({ ok: false, code: 'CARD_ALREADY_CLOSED' });
    expect(planCardChange('CLOSED', 'CLOSED_BY_PLATFORM', { state: 'ACTIVE' })).toMatchObject({ ok: false, code: 'CARD_NOT_MUTABLE' });
    expect(planCardChange('CLOSED', 'ISSUER_REJECTED', { maxSpendPerTransaction: 10n })).toMatchObject({ ok: false, code: 'CARD_NOT_MUTABLE' });
    expect(planCardChange('CLOSED', 'ISSUER_REJECTED', { fundingSources: ['InternalAccount:x'] })).toMatchObject({ ok: false, code: 'CARD_NOT_MUTABLE' });
  });

  test('changes without a state keep the state, even while PROCESSING', () => {
    expect(planCardChange('PROCESSING', null, { maxSpendPerTransaction: null })).toEqual({
      ok: true,
      state: 'PROCESSING',
      stateReason: null,
      stateChanged: false,
    });
  });

  test('live-card cap and one card per cardholder', () => {
    expect(cardLimitRefusal({ maxLiveCards: 2, oneCardPerCardholder: false }, { platform: 1, cardholder: 1 })).toBeNull();
    expect(cardLimitRefusal({ maxLiveCards: 2, oneCardPerCardholder: false }, { platform: 2, cardholder: 0 })).toMatch(/limit \(2\)/);
    expect(cardLimitRefusal({ maxLiveCards: null, oneCardPerCardholder: true }, { platform: 50, cardholder: 1 })).toMatch(/one live card/);
    expect(cardLimitRefusal({ maxLiveCards: null, oneCardPerCardholder: true }, { platform: 50, cardholder: 0 })).toBeNull();
  });
});

describe('authorization decisions', () => {
  const base = {
    cardState: 'ACTIVE' as const,
    amount: 500n,
    maxSpendPerTransaction: null,
    available: 1000n,
    fundingAuthorized: true,
    descriptor: 'COFFEE',
    sandbox: true,
  };
  test('approves within funds and limit; a transaction equal to the limit is allowed', () => {
    expect(declineReason(base)).toBeNull();
    expect(declineReason({ ...base, maxSpendPerTransaction: 500n })).toBeNull();
    expect(declineReason({ ...base, available: 500n })).toBeNull();
  });
  test('declines with a reason', () => {
    expect(declineReason({ ...base, maxSpendPerTransaction: 499n })).toBe('SPEND_LIMIT_EXCEEDED');
    expect(declineReason({ ...base, available: 499n })).toBe('INSUFFICIENT_FUNDS');
    expect(declineReason({ ...base, cardState: 'FROZEN' })).toBe('CARD_PAUSED');
    expect(declineReason({ ...base, cardState: 'CLOSED' })).toBe('CARD_NOT_ACTIVE');
    expect(declineReason({ ...base, cardState: 'PROCESSING' })).toBe('CARD_NOT_ACTIVE');
    expect(declineReason({ ...base, fundingAuthorized: false })).toBe('FUNDING_SOURCE_NOT_AUTHORIZED');
  });
  test('sandbox descriptor suffixes 002 and 003 force declines, only in the sandbox', () => {
    expect(declineReason({ ...base, descriptor: 'AMAZON-002' })).toBe('INSUFFICIENT_FUNDS');
    expect(declineReason({ ...base, descriptor: 'AMAZON-003' })).toBe('CARD_PAUSED');
    expect(declineReason({ ...base, descriptor: 'AMAZON-002', sandbox: false })).toBeNull();
  });
});

describe('hold arithmetic', () => {
  const authorized = (amount: bigint): CardAmounts => authorizationAmounts(amount).amounts;
  const ok = (plan: ReturnType<typeof planClearing>) => {
    if (!plan.ok) throw new Error(plan.message);
    return plan;
  };
  /** Money conservation: what left the funding account = held + settled − refunded, for debit transactions. */
  const conserved = (moves: ReturnType<typeof ok>['movement'][], t: CardAmounts) => {
    const out = moves.reduce((s, m) => s + m.hold + m.pull - m.release - m.credit, 0n);
    expect(out).toBe(t.held + t.settled - t.refunded);
  };

  test('an authorization holds its whole amount', () => {
    expect(authorizationAmounts(1250n)).toEqual({
      amounts: { direction: 'DEBIT', status: 'AUTHORIZED', authorized: 1250n, held: 1250n, settled: 0n, refunded: 0n },
      movement: { hold: 1250n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 0n },
    });
  });

  test('partial clearing keeps the rest held; the final part settles and releases nothing more', () => {
    const start = authorizationAmounts(1000n);
    const first = ok(planClearing(start.amounts, 400n));
    expect(first.next).toMatchObject({ status: 'PARTIALLY_SETTLED', held: 600n, settled: 400n });
    expect(first.movement).toMatchObject({ settleFromHold: 400n, pull: 0n, release: 0n });
    const second = ok(planClearing(first.next, 600n));
    expect(second.next).toMatchObject({ status: 'SETTLED', held: 0n, settled: 1000n });
    conserved([start.movement, first.movement, second.movement], second.next);
  });

  test('a clearing under the authorization, then expiry, releases what is left', () => {
    const start = authorizationAmounts(1000n);
    const part = ok(planClearing(start.amounts, 300n));
    const expired = ok(planExpiry(part.next));
    expect(expired.movement.release).toBe(700n);
    expect(expired.next).toMatchObject({ status: 'SETTLED', held: 0n, settled: 300n });
    conserved([start.movement, part.movement, expired.movement], expired.next);
  });

  test('clearing of 0 is the expiry; a second expiry moves nothing', () => {
    const start = authorizationAmounts(800n);
    const expired = ok(planClearing(start.amounts, 0n));
    expect(expired.movement).toMatchObject({ release: 800n, settleFromHold: 0n });
    expect(expired.next).toMatchObject({ status: 'SETTLED', held: 0n, settled: 0n });
    expect(ok(planExpiry(expired.next)).movement.release).toBe(0n);
  });

  test('an over-authorization clearing (tip) pulls the excess from the funding account', () => {
    const start = authorizationAmounts(1000n);
    const tip = ok(planClearing(start.amounts, 1200n));
    expect(tip.movement).toMatchObject({ settleFromHold: 1000n, pull: 200n, release: 0n });
    expect(tip.next).toMatchObject({ status: 'SETTLED', settled: 1200n, held: 0n });
    conserved([start.movement, tip.movement], tip.next);
  });

  test('a settled transaction cannot be cleared again', () => {
    const settled = ok(planClearing(authorized(100n), 100n)).next;
    expect(planClearing(settled, 10n)).toMatchObject({ ok: false });
  });

  test('an advice re-sizes the hold up or down, only while open', () => {
    const up = ok(planAdvice(authorized(1000n), 1500n));
    expect(up.movement).toMatchObject({ hold: 500n, release: 0n });
    expect(up.next).toMatchObject({ authorized: 1500n, held: 1500n });
    const part = ok(planClearing(up.next, 500n)).next;
    const down = ok(planAdvice(part, 800n));
    expect(down.movement).toMatchObject({ hold: 0n, release: 700n });
    expect(down.next).toMatchObject({ authorized: 800n, held: 300n, status: 'PARTIALLY_SETTLED' });
    expect(planAdvice(part, 400n)).toMatchObject({ ok: false });
    const settled = ok(planClearing(authorized(100n), 100n)).next;
    expect(planAdvice(settled, 200n)).toMatchObject({ ok: false });
  });

  test('returns: partial keeps SETTLED, full is REFUNDED, more than settled is refused; a reversal pulls it again', () => {
    const settled = ok(planClearing(authorized(1500n), 1500n)).next;
    const partial = ok(planReturn(settled, 500n));
    expect(partial.next).toMatchObject({ status: 'SETTLED', refunded: 500n });
    expect(partial.movement.credit).toBe(500n);
    expect(planReturn(partial.next, 1001n)).toMatchObject({ ok: false });
    const full = ok(planReturn(partial.next, 1000n));
    expect(full.next).toMatchObject({ status: 'REFUNDED', refunded: 1500n });
    const reversal = ok(planReturnReversal(full.next));
    expect(reversal.movement.pull).toBe(1500n);
    expect(reversal.next).toMatchObject({ status: 'SETTLED', refunded: 0n });
    expect(planReturnReversal(reversal.next)).toMatchObject({ ok: false });
    expect(planReturn(authorized(100n), 10n)).toMatchObject({ ok: false });
  });

  test('financial authorizations settle at once', () => {
    expect(financialAmounts('DEBIT', 8000n)).toMatchObject({ amounts: { status: 'SETTLED', settled: 8000n, held: 0n }, movement: { pull: 8000n } });
    expect(financialAmounts('CREDIT', 2500n)).toMatchObject({ amounts: { status: 'SETTLED', direction: 'CREDIT' }, movement: { credit: 2500n } });
  });
});

describe('card secrets', () => {
  test('sandbox PANs are 16-digit, Luhn-valid VISA numbers', () => {
    const pan = newSandboxPan();
    expect(pan).toMatch(/^4\d{15}$/);
    expect(luhnValid(pan)).toBe(true);
    expect(luhnValid(`${pan.slice(0, 15)}${(Number(pan[15]) + 1) % 10}`)).toBe(false);
  });
  test('reveal tokens verify until they expire and not after tampering', () => {
    const key = Buffer.alloc(32, 7);
    const token = revealToken(key, 'Card:abc', 'link-1', 1_000_000);
    expect(verifyRevealToken(key, token, 999_999)).toEqual({ cardId: 'Card:abc', linkId: 'link-1' });
    expect(verifyRevealToken(key, token, 1_000_001)).toBeNull();
    expect(
      verifyRevealToken(
        key,
        token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        999_999,
      ),
    ).toBeNull();
    expect(verifyRevealToken(Buffer.alloc(32, 8), token, 999_999)).toBeNull();
  });
});

describe('card ledger audit', () => {
  const ids = { holdsAccountId: (p: string, c: string) => `H:${p}:${c}`, networkAccountId: (p: string, c: string) => `N:${p}:${c}` };
  const totals = [{ platformId: 'P', currency: 'USD', held: 700n, toNetwork: 1_200n }];
  test('clean when CARD_HOLDS and CARD_NETWORK match the card transactions and funding accounts show their holds', () => {
    const balances = new Map([
      ['H:P:USD', 700n],
      ['N:P:USD', 1_200n],
    ]);
    expect(auditCardLedger({ ...ids, totals, balances, fundingHolds: [{ accountId: 'A', cardHeld: 700n, accountHeld: 900n }] })).toEqual([]);
  });
  test('finds a hold or a settlement the accounts do not match', () => {
    const balances = new Map([
      ['H:P:USD', 600n],
      ['N:P:USD', 1_300n],
    ]);
    const findings = auditCardLedger({ ...ids, totals, balances, fundingHolds: [{ accountId: 'A', cardHeld: 700n, accountHeld: 100n }] });
    expect(findings.map((f) => [f.kind, f.subject])).toEqual([
      ['CARD_HOLDS_MISMATCH', 'H:P:USD'],
      ['CARD_NETWORK_MISMATCH', 'N:P:USD'],
      ['CARD_HOLD_NOT_SHOWN', 'A'],
    ]);
  });
});

describe('card ledger lines', () => {
  const p = { platformId: 'P', fundingAccountId: 'InternalAccount:a', currency: 'USD' };
  const sum = (lines: { amount: bigint }[]) => lines.reduce((s, l) => s + l.amount, 0n);
  test('every movement is one balanced set of lines, one per account', () => {
    const movements = [
      { hold: 500n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 0n },
      { hold: 0n, release: 200n, settleFromHold: 300n, pull: 0n, credit: 0n },
      { hold: 0n, release: 0n, settleFromHold: 1000n, pull: 200n, credit: 0n },
      { hold: 0n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 400n },
    ];
    for (const m of movements) {
      const lines = movementLines(p, m);
      expect(sum(lines)).toBe(0n);
      expect(new Set(lines.map((l) => l.accountId)).size).toBe(lines.length);
      expect(lines.every((l) => l.amount !== 0n && l.currency === 'USD')).toBe(true);
    }
    expect(movementLines(p, { hold: 500n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 0n })).toEqual([
      { accountId: 'InternalAccount:a', currency: 'USD', amount: -500n },
      { accountId: 'Ledger:P:CARD_HOLDS:USD', currency: 'USD', amount: 500n },
    ]);
    // A forced pull comes from the shortfall account, never the funding account.
    const forced = movementLines(p, { hold: 0n, release: 0n, settleFromHold: 1000n, pull: 300n, credit: 0n }, 'Ledger:P:RETURN_SHORTFALL:USD');
    expect(forced.find((l) => l.accountId === 'InternalAccount:a')).toBeUndefined();
    expect(forced.find((l) => l.accountId === 'Ledger:P:RETURN_SHORTFALL:USD')?.amount).toBe(-300n);
    expect(movementLines(p, { hold: 0n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 0n })).toEqual([]);
  });
});
