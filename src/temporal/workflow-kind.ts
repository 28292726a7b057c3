import type { TaskQueue } from './task-queues';
import type { VersioningBehaviour } from './versioning-behaviours';

/**
 * A workflow type as its contract (workflows/<context>/definitions.ts) declares it, once: the type name
 * its starter starts and the worker runs, the task queue it runs on, and how it follows a new build.
 * Each workflows/<context>/index.ts exports its kinds beside its workflows, so the bundle's one list
 * (workflows/index.ts) lists them too (the versioned bundle, workflows/versioned.ts, reads them there).
 * Pure: workflow code reads a child's queue from it.
 */
export interface WorkflowKind<Type extends string = string, Signature extends WorkflowSignature = WorkflowSignature> {
  readonly type: Type;
  readonly taskQueue: TaskQueue;
  readonly versioning: VersioningBehaviour;
  /** Never set: the workflow's signature, as a type, which its starter starts and its code keeps to (test/unit/workflow-kind.test.ts). */
  readonly signature?: Signature;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any input: each kind states its own
export type WorkflowSignature = (...args: any[]) => Promise<unknown>;

/** The signature a kind declares: what `client.workflow.start<…>` and `WithStartWorkflowOperation<…>` take. */
export type SignatureOf<Kind> = Kind extends WorkflowKind<string, infer Signature> ? Signature : never;

export function isWorkflowKind(value: unknown): value is WorkflowKind {
  if (typeof value !== 'object' || value === null) return false;
  const kind = value as Partial<WorkflowKind>;
  return typeof kind.type === 'string' && typeof kind.taskQueue === 'string' && typeof kind.versioning === 'string';
}

/** The workflow kinds a bundle module exports (workflows/index.ts: every context's), by type name. */
export function workflowKinds(bundle: Record<string, unknown>): WorkflowKind[] {
  return Object.values(bundle).filter(isWorkflowKind);
}
