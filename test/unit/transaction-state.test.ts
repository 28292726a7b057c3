import { assertTransition, canTransition, incomingPaymentEventType, type TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';

const ALL: TransactionStatus[] = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'];

describe('canTransition / assertTransition', () => {
  test('PENDING → COMPLETED is allowed', () => {
    expect(canTransition('PENDING', 'COMPLETED')).toBe(true);
    expect(() => assertTransition('PENDING', 'COMPLETED')).not.toThrow();
  });

  test('COMPLETED → FAILED (a bank return) is allowed', () => {
    expect(canTransition('COMPLETED', 'FAILED')).toBe(true);
    expect(() => assertTransition('COMPLETED', 'FAILED')).not.toThrow();
  });

  test('FAILED → COMPLETED is refused', () => {
    expect(canTransition('FAILED', 'COMPLETED')).toBe(false);
    expect(() => assertTransition('FAILED', 'COMPLETED')).toThrow('transaction cannot move from FAILED to COMPLETED');
  });

  test('a few other moves', () => {
    expect(canTransition('CREATED', 'PENDING')).toBe(true);
    expect(canTransition('PROCESSING', 'COMPLETED')).toBe(true);
    expect(canTransition('FAILED', 'REFUNDED')).toBe(true);
    expect(canTransition('COMPLETED', 'REFUNDED')).toBe(true);
    expect(canTransition('CREATED', 'COMPLETED')).toBe(false);
    expect(canTransition('COMPLETED', 'PENDING')).toBe(false);
    expect(canTransition('PROCESSING', 'PENDING')).toBe(false);
  });

  test('a payment an execution gate holds waits in PENDING_AUTHORIZATION, then runs, fails or expires', () => {
    expect(canTransition('PENDING', 'PENDING_AUTHORIZATION')).toBe(true);
    for (const to of ['PROCESSING', 'FAILED', 'EXPIRED'] as const) expect(canTransition('PENDING_AUTHORIZATION', to)).toBe(true);
    expect(canTransition('PROCESSING', 'PENDING_AUTHORIZATION')).toBe(false);
  });

  test.each(['REJECTED', 'REFUNDED', 'EXPIRED'] as const)('%s is terminal', (from) => {
    for (const to of ALL) {
      expect(canTransition(from, to)).toBe(false);
      expect(() => assertTransition(from, to)).toThrow(`transaction cannot move from ${from} to ${to}`);
    }
  });

  test('no status moves to itself', () => {
    for (const s of ALL) expect(canTransition(s, s)).toBe(false);
  });

  test('nothing moves back to CREATED', () => {
    for (const s of ALL) expect(canTransition(s, 'CREATED')).toBe(false);
  });
});

describe('incomingPaymentEventType', () => {
  test('PENDING, COMPLETED and FAILED have events', () => {
    expect(incomingPaymentEventType('PENDING')).toBe('INCOMING_PAYMENT.PENDING');
    expect(incomingPaymentEventType('COMPLETED')).toBe('INCOMING_PAYMENT.COMPLETED');
    expect(incomingPaymentEventType('FAILED')).toBe('INCOMING_PAYMENT.FAILED');
  });

  test('REJECTED (the platform said no) is announced as FAILED: the catalogue has no REJECTED event', () => {
    expect(incomingPaymentEventType('REJECTED')).toBe('INCOMING_PAYMENT.FAILED');
  });

  test('other statuses have none', () => {
    for (const s of ALL.filter((x) => !['PENDING', 'COMPLETED', 'FAILED', 'REJECTED'].includes(x))) {
      expect(incomingPaymentEventType(s)).toBeNull();
    }
  });
});
