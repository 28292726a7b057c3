import type { NextFunction, Request, Response } from 'express';
import type { ApiMetrics } from '../metrics';
import { routeTemplateOf } from '../route-template';

/** Times every request to its response and records it under its route template and status. */
export function requestMetrics(metrics: ApiMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = metrics.requestDuration.startTimer();
    res.once('finish', () => stop({ method: req.method, route: routeTemplateOf(req, res), status_code: String(res.statusCode) }));
    next();
  };
}
