import { sumOfCounter } from '../proof/stack';

const text = `# HELP payments_webhook_attempts_total Webhook delivery attempts
# TYPE payments_webhook_attempts_total counter
payments_webhook_attempts_total{outcome="delivered"} 12
payments_webhook_attempts_total{outcome="rejected"} 3
payments_http_request_duration_seconds_count{method="POST",route="/quotes",status_code="201"} 7
payments_http_request_duration_seconds_count{method="GET",route="/ready",status_code="200"} 40
payments_http_request_duration_seconds_count{method="POST",route="/quotes",status_code="400"} 2
payments_http_request_duration_seconds_count{method="GET",route="/customers/:customerId",status_code="200"} 5
payments_http_request_duration_seconds_sum{method="POST",route="/quotes",status_code="201"} 0.8
`;

describe('reading a counter from Prometheus text (the crash campaign sees work flowing again)', () => {
  test('sums the series whose labels match, and only of that name', () => {
    expect(sumOfCounter(text, 'payments_webhook_attempts_total', { outcome: /^delivered$/ })).toBe(12);
    expect(sumOfCounter(text, 'payments_webhook_attempts_total')).toBe(15);
    expect(sumOfCounter(text, 'payments_http_request_duration_seconds_count', { status_code: /^2/, route: /^\/(?!ready$|health$)/ })).toBe(12);
  });

  test('a counter not served yet is 0', () => {
    expect(sumOfCounter(text, 'payments_finished_total')).toBe(0);
    expect(sumOfCounter('', 'payments_webhook_attempts_total')).toBe(0);
  });
});
