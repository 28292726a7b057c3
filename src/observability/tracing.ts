import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * OpenTelemetry SDK 1.x on purpose: @temporalio/interceptors-opentelemetry 1.24 builds on it (its
 * spans break a 2.x exporter). Imported only when tracing is configured, so without an OTLP
 * endpoint no OpenTelemetry code is loaded at all.
 */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

/**
 * Registers this process's tracer provider (AsyncLocalStorage context, W3C trace context). Spans
 * go to the OTLP/HTTP exporter, which reads the standard OTEL_EXPORTER_OTLP_* variables, in
 * batches; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the resource.
 */
export function startTracing(serviceName: string, spanProcessor: SpanProcessor = new BatchSpanProcessor(new OTLPTraceExporter())): Tracing {
  const resource = new Resource({ 'service.name': serviceName }).merge(envDetectorSync.detect());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return { resource, spanProcessor, shutdown: () => provider.shutdown() };
}
