/**
 * How each workflow type follows a new build when the workers run versioned (Worker Deployments:
 * WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID, src/temporal/worker-deployment.ts; docs/production.md "Zero-downtime deploys").
 * Each workflow's contract states its own (its WorkflowKind, workflows/<context>/definitions.ts); the versioned
 * workflow bundle (workflows/versioned.ts) tags each type with it.
 *
 * - PINNED: a run ends on the build it started on. For runs that end within a day (a payment's longest wait is
 *   a 24-hour approval hold; a challenge lapses in minutes; a bulk file is worked through once): money and its
 *   challenges never meet new code mid-run, and the old build's workers drain within a day.
 * - AUTO_UPGRADE: a run moves to the current build at its next workflow task. For runs that may live for weeks
 *   or years (a card, a verification waiting for documents, webhook retries for days): pinned, they would keep
 *   old builds running as long. Their changes are guarded by patched() and the replay tests, as without versioning.
 */
export type VersioningBehaviour = 'PINNED' | 'AUTO_UPGRADE';
