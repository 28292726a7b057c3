import { executeAnswer, executionAttemptKey } from '../../src/contexts/payments/domain/execution-attempts';

describe('executionAttemptKey', () => {
  test("a request's Idempotency-Key is its attempts' key, so a retry of the request is the same request", () => {
    expect(executionAttemptKey('pay-42')).toBe('pay-42');
  });

  test('without a key, every attempt makes one of its own', () => {
    const [a, b] = [executionAttemptKey(undefined), executionAttemptKey(undefined)];
    expect(a).toMatch(/^attempt:[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});

describe('executeAnswer', () => {
  test('an execution that was not a repeat is answered as executed', () => {
    expect(executeAnswer({ key: 'attempt:1', repeat: false }, 'attempt:1')).toBe('EXECUTED');
  });

  test('a repeat while the quote records the attempt’s own key (its step ran twice, or a retry of the request) is answered as executed', () => {
    expect(executeAnswer({ key: 'attempt:1', repeat: true }, 'attempt:1')).toBe('EXECUTED');
    expect(executeAnswer({ key: 'pay-42', repeat: true }, 'pay-42')).toBe('EXECUTED');
  });

  test("a repeat while the quote records another request's key, or none, is already executed", () => {
    expect(executeAnswer({ key: 'attempt:1', repeat: true }, 'attempt:2')).toBe('ALREADY_EXECUTED');
    expect(executeAnswer({ key: 'pay-42', repeat: true }, 'pay-43')).toBe('ALREADY_EXECUTED');
    expect(executeAnswer({ key: 'attempt:1', repeat: true }, null)).toBe('ALREADY_EXECUTED');
    expect(executeAnswer({ key: 'attempt:1', repeat: true }, undefined)).toBe('ALREADY_EXECUTED');
  });
});
