import { executionRequestKey } from '../../src/contexts/payments/domain/execution-attempts';

describe('executionRequestKey', () => {
  test("a request's Idempotency-Key is its key, so a retry of the request is the same request", () => {
    expect(executionRequestKey('pay-42')).toBe('pay-42');
  });

  test('without a key, every request makes one of its own', () => {
    const [a, b] = [executionRequestKey(undefined), executionRequestKey(undefined)];
    expect(a).toMatch(/^request:[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
