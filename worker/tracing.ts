import { startTracing } from '../src/observability/tracing';
import { tracingClientInterceptors, tracingWorkerOptions } from '../src/temporal/tracing';

/** The worker's tracing: workflow and activity spans, and the sweepers' client calls. Imported only when configured. */
export function startWorkerTracing() {
  const tracing = startTracing('payments-worker');
  return { workerOptions: tracingWorkerOptions(tracing), clientInterceptors: tracingClientInterceptors(), shutdown: tracing.shutdown };
}
