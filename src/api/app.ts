import express, { type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { pinoHttp } from 'pino-http';
import { basePath, DEFAULT_ABUSE_LIMITS } from '../config';
import { loggedUrl, logger } from '../logger';
import type { ApiDeps } from './context';
import { authenticate, authFailureThrottle } from './middleware/auth';
import type { FailureThrottle } from '../security/failure-throttle';
import { errorHandler } from './middleware/errors';
import { notFoundHandler } from './middleware/not-found';
import { undecodablePathHandler } from './middleware/undecodable-path';
import { notImplementedHandler, unbuiltRoutes } from './middleware/not-implemented';
import { rateLimitPerToken } from './middleware/rate-limit';
import { requestMetrics } from './middleware/request-metrics';
import { openApiDocument } from './openapi-registry';
import { dependencyChecks, readinessHandler } from './readiness';
import { temporalDeadline } from './middleware/temporal-deadline';
import { referenceRoutes } from './reference-page';
import { mountRoute, registeredRoutes } from './route';
import { CONTEXTS_DIR, discover } from '../contexts/discover';
import type { RouteSpec } from './route';
import { byPathSpecificity } from './route-order';
import { TRANSACTION_DECIDERS } from '../contexts/transaction-deciders';

export function createApp(deps: ApiDeps) {
  // The payments context decides pending transactions through these, without importing the list of
  // every context's deciders. Set on the given object (not a copy): tests change deps after this.
  deps.transactionDeciders ??= TRANSACTION_DECIDERS;
  const base = basePath(deps.config.apiPrefix);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // First, so the span and the timing cover everything after them (authentication included).
  if (deps.requestSpans) app.use(deps.requestSpans);
  if (deps.metrics) app.use(requestMetrics(deps.metrics));

  app.use((req: Request, res: Response, next) => {
    const id = req.get('x-request-id') ?? `req_${randomUUID()}`;
    res.setHeader('X-Request-Id', id);
    (req as Request & { id: string }).id = id;
    next();
  });
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req as unknown as { id: string }).id,
      customProps: (req) => ({ requestId: (req as unknown as { id: string }).id }),
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: loggedUrl(req.url) }) },
    }),
  );

  // Liveness: the process answers. Readiness: its dependencies answer too.
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', readinessHandler(dependencyChecks(deps)));

  const docs = express.Router();
  docs.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument(deps.config.publicBaseUrl));
  });
  // The rendered reference and the Scalar bundle it runs, both served from here (no CDN).
  docs.use(referenceRoutes(base, deps.config.publicBaseUrl));
  app.use(base, docs);

  // Contexts' pages for people other than the partner (a cardholder's reveal page), each with
  // its own credential, so they come before partner authentication.
  // The dashboard's sign-in is one of them: it checks a token's secret, counted with every other failed authentication.
  const limits = deps.config.limits ?? DEFAULT_ABUSE_LIMITS;
  const now = deps.now ?? Date.now;
  const authFailures = authFailureThrottle(limits, now);
  const contexts = discover<{
    routes: RouteSpec<never, never, never>[];
    publicRouter?: (deps: ApiDeps, shared: { authFailures: FailureThrottle; now: () => number }) => express.Router;
    rootRouter?: (deps: ApiDeps) => express.Router;
  }>(CONTEXTS_DIR, 'api/index');
  // Pages outside the API base (the dashboard's front end), with no credentials of their own.
  for (const { module } of contexts) if (module.rootRouter) app.use(module.rootRouter(deps));
  for (const { module } of contexts) if (module.publicRouter) app.use(base, module.publicRouter(deps, { authFailures, now }));

  const api = express.Router();
  // Credentials and the rate limit first: bodies are read by each route, within its own limit.
  // Every answer of the authenticated API — refusals and the 404 of an unknown path included —
  // is the caller's own: no shared or browser cache may keep it.
  api.use((_req: Request, res: Response, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(temporalDeadline(deps.temporal, deps.config.temporalCallTimeoutMs));
  api.use(authenticate(deps, limits, now, authFailures));
  api.use(rateLimitPerToken(limits, now));
  const routes = contexts.flatMap(({ module }) => module.routes);
  for (const route of [...routes].sort(byPathSpecificity)) mountRoute(api, deps, route);
  // After every route, behind authentication: the reference's operations not built yet answer 501.
  api.use(notImplementedHandler());
  app.use(base, api);

  const knownRoutes = () => [...registeredRoutes, ...unbuiltRoutes];
  app.use(notFoundHandler(knownRoutes, base));
  app.use(undecodablePathHandler(knownRoutes, base));
  app.use(errorHandler);
  return app;
}
