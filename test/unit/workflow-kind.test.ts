import { isTaskQueue } from '../../src/temporal/task-queues';
import { workflowKinds, type SignatureOf, type WorkflowKind } from '../../src/temporal/workflow-kind';
import type * as workflowBundle from '../../workflows';

// Each workflow's contract (workflows/<context>/definitions.ts) declares its kind: type name, task queue,
// versioning behaviour and signature. Its starter starts it by that name and signature, without loading
// the workflow's code; the bundle (workflows/index.ts, through each workflows/<context>/index.ts) exports
// every workflow beside its kind.

type Bundle = typeof workflowBundle;
/** The bundle's kinds, by the workflow type each names. */
type KindsByType = { [Name in keyof Bundle as Bundle[Name] extends WorkflowKind<infer Type> ? Type : never]: Bundle[Name] };
/** For each kind: true when the bundle exports a workflow of its type that keeps to its signature. */
type KeepsToContract = {
  [Type in keyof KindsByType]: Type extends keyof Bundle ? (Bundle[Type] extends SignatureOf<KindsByType[Type]> ? true : false) : false;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const workflows: Record<string, unknown> = require('../../workflows');

test('every workflow of the bundle has one kind, and every kind names a workflow of the bundle', () => {
  const functions = Object.keys(workflows).filter((name) => typeof workflows[name] === 'function');
  const kinds = workflowKinds(workflows);
  expect(kinds.map((kind) => kind.type).sort()).toEqual(functions.sort());
  expect(new Set(kinds.map((kind) => kind.type)).size).toBe(kinds.length);
  for (const kind of kinds) expect(isTaskQueue(kind.taskQueue)).toBe(true);
});

test('each workflow keeps to the signature its kind declares (tsc checks it: a drift fails the type check here)', () => {
  const keeps: Record<keyof KindsByType, true> = {} as KeepsToContract;
  expect(keeps).toBeDefined();
});
