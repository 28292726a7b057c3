import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { requestSpans } from '../../src/api/middleware/request-spans';
import { startTracing, type Tracing } from '../../src/observability/tracing';
import { tracingClientInterceptors, tracingWorkerOptions } from '../../src/temporal/tracing';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let h: Harness;
beforeAll(async () => {
  tracing = startTracing('payments-test', new SimpleSpanProcessor(exporter));
  h = await Harness.start({
    tracing: { requestSpans: requestSpans(), clientInterceptors: tracingClientInterceptors(), worker: tracingWorkerOptions(tracing) },
  });
});
afterAll(async () => {
  await h.stop();
  await tracing.shutdown();
});

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
/** The span ends when the response closes, which may come a moment after the client has read it. */
const finished = async (name: string) =>
  (
    await eventually(
      async () => named(exporter.getFinishedSpans(), name),
      (found) => found.length > 0,
    )
  )[0];

test('one request that funds an account yields API, workflow and activity spans in one trace', async () => {
  const { api } = await h.platform();
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `trace-${Math.random()}`, fullName: 'Ada Lovelace' });
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&currency=USD`);
  exporter.reset();

  await api.post(`/sandbox/internal-accounts/${accounts.body.data[0].id}/fund`, { amount: 2_500 }).expect(200);

  const request = await finished('POST /sandbox/internal-accounts/:accountId/fund');
  expect(request).toBeDefined();
  const traceId = request!.spanContext().traceId;
  const inTrace = () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  // Workflow spans leave the workflow sandbox through a sink after their task: wait for them.
  const spans = await eventually(
    async () => inTrace(),
    (all) => named(all, 'RunWorkflow:incomingPayment').length > 0 && named(all, 'RunActivity:postIncomingPayment').length > 0,
  );

  // request → update-with-start (client) → workflow run → activity scheduled → activity run
  const one = (name: string) => {
    const found = named(spans, name);
    expect(found.map((s) => s.name)).toEqual([name]);
    return found[0]!;
  };
  const start = one('UpdateWithStartWorkflow:posted');
  const run = one('RunWorkflow:incomingPayment');
  const schedule = one('StartActivity:postIncomingPayment');
  const activity = one('RunActivity:postIncomingPayment');
  expect(start.parentSpanId).toBe(request!.spanContext().spanId);
  expect(run.parentSpanId).toBe(start.spanContext().spanId);
  expect(schedule.parentSpanId).toBe(run.spanContext().spanId);
  expect(activity.parentSpanId).toBe(schedule.spanContext().spanId);
  expect(request!.attributes).toMatchObject({ 'http.route': '/sandbox/internal-accounts/:accountId/fund', 'http.response.status_code': 200 });
});

test("a caller's traceparent is continued, and the span is named by route template", async () => {
  const { api } = await h.platform();
  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  exporter.reset();
  await api.get('/customers/Customer:00000000-0000-4000-8000-000000000000').set('traceparent', `00-${callerTrace}-00f067aa0ba902b7-01`).expect(404);
  const span = await finished('GET /customers/:customerId');
  expect(span?.spanContext().traceId).toBe(callerTrace);
  expect(span?.parentSpanId).toBe('00f067aa0ba902b7');
  expect(span?.attributes).toMatchObject({
    'url.path': '/2025-10-13/customers/Customer:00000000-0000-4000-8000-000000000000',
    'http.response.status_code': 404,
  });
});
