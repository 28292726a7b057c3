import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { loggedUrl } from '../../logger';
import { routeTemplateOf } from '../route-template';

/**
 * One SERVER span per request, continuing the caller's trace when it sends `traceparent`, and
 * active for everything the request does: the workflow client's spans (StartWorkflow, updates)
 * become its children, so a trace follows the request into its workflow and activities.
 */
export function requestSpans(tracer: Tracer = trace.getTracer('payments-api')) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': loggedUrl(req.originalUrl.split('?')[0]!) } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    res.once('close', () => {
      // Named by route template only now that routing is done (the raw path is an attribute).
      const route = routeTemplateOf(req, res);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    // Stream listeners (the body parser's) would otherwise run outside the request's context.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}
