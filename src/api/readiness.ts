import type { Request, Response } from 'express';
import type { ApiDeps } from './context';
import { logger } from '../logger';

/** Each dependency must answer within this, so a probe never hangs on a dead one. */
const CHECK_TIMEOUT_MS = 2_000;
/**
 * The Temporal call ends itself at its gRPC deadline (its retries of an unreachable server stop
 * there too); this later guard catches a check that would not end, e.g. a pool waiting for a
 * connection.
 */
const GUARD_MS = CHECK_TIMEOUT_MS + 500;

type Check = () => Promise<unknown>;

/** PostgreSQL answers `select 1`; the Temporal frontend answers GetSystemInfo. */
export function dependencyChecks(deps: Pick<ApiDeps, 'orm' | 'temporal'>): Record<'postgres' | 'temporal', Check> {
  return {
    postgres: () => deps.orm.em.fork().getConnection().execute('select 1'),
    temporal: () => deps.temporal.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () => deps.temporal.workflowService.getSystemInfo({})),
  };
}

/**
 * `GET /ready`: 200 `{"status":"ready","checks":{"postgres":"ok","temporal":"ok"}}` when every
 * dependency answers, else 503 `"status":"not_ready"` with each failed check as `"failed"`. Why a
 * check failed is logged, not answered: the endpoint is unauthenticated.
 */
export function readinessHandler(checks: Record<string, Check>) {
  return async (_req: Request, res: Response): Promise<void> => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), GUARD_MS);
          return [name, 'ok'] as const;
        } catch (err) {
          logger.warn({ err, check: name }, 'readiness check failed');
          return [name, 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, result]) => result === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
