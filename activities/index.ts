import { discover } from '../src/contexts/discover';
import type { ActivityDeps } from './deps';
import { withFailureConversion } from './failures';

export type { ActivityDeps, WebhookSender } from './deps';

type ActivityFunction = (...args: never[]) => Promise<unknown>;

/**
 * Builds every activity with its dependencies injected; the worker registers the result. Each
 * context folder (`activities/<context>/index.ts`) exports `createActivities(deps)` and is found
 * by convention. Two contexts may not register the same activity name. A DomainError thrown by
 * any of them reaches the workflow as a non-retryable failure typed with its code.
 */
export function createActivities(deps: ActivityDeps): Record<string, ActivityFunction> {
  const all: Record<string, ActivityFunction> = {};
  for (const { context, module } of discover<{ createActivities?: (deps: ActivityDeps) => Record<string, ActivityFunction> }>(__dirname, 'index')) {
    if (!module.createActivities) continue;
    for (const [name, fn] of Object.entries(withFailureConversion(module.createActivities(deps)))) {
      if (name in all) throw new Error(`activity ${name} is registered twice (again by activities/${context})`);
      all[name] = fn;
    }
  }
  return all;
}
