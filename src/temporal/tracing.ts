import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ClientInterceptors } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../observability/tracing';

/**
 * The workflow side of tracing, bundled into the workflow code only when tracing is on (it
 * exports its spans through the `exporter` sink below, which exists only then).
 */
export const TRACING_WORKFLOW_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** Client calls (start, update, signal…) open a span and carry its context to the workflow in headers. */
export function tracingClientInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/** Workflow and activity spans, children of the caller's; workflow spans leave the sandbox through a sink. */
export function tracingWorkerOptions(tracing: Tracing): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    interceptors: {
      workflowModules: TRACING_WORKFLOW_MODULES,
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
