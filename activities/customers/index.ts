import type { ActivityDeps } from '../deps';
import { bulkImportActivities } from './bulk-import-activities';
import { verificationActivities } from './verification-activities';

export function createActivities(deps: ActivityDeps) {
  return { ...verificationActivities(deps), ...bulkImportActivities(deps) };
}

/** What customer and onboarding workflows may call (imported type-only by workflows). */
export type CustomerActivities = ReturnType<typeof createActivities>;
