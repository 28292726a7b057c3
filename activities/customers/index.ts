import type { ActivityDeps } from '../deps';
import { bulkImportActivities } from './bulk-import';
import { verificationActivities } from './verifications';

export function createActivities(deps: ActivityDeps) {
  return { ...verificationActivities(deps), ...bulkImportActivities(deps) };
}

/** What customer and onboarding workflows may call (imported type-only by workflows). */
export type CustomerActivities = ReturnType<typeof createActivities>;
