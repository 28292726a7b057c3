import { startTracing } from '../observability/tracing';
import { tracingClientInterceptors } from '../temporal/tracing';
import { requestSpans } from './middleware/request-spans';

/** The API's tracing: a span per request, parent of the workflow client's spans. Imported only when configured. */
export function startApiTracing() {
  const tracing = startTracing('payments-api');
  return { requestSpans: requestSpans(), clientInterceptors: tracingClientInterceptors(), shutdown: tracing.shutdown };
}
