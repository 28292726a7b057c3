import { sep } from 'node:path';
import workerThreads from 'node:worker_threads';

/**
 * The Temporal SDK records a stack trace for every promise workflow code creates: a V8 promise hook in each workflow
 * thread (`globalHandlers` in @temporalio/worker/lib/workflow/vm-shared.js) builds an Error, walks its frames through
 * the bundle's source map and keeps the result, only so that the `__stack_trace` query (Temporal UI's "Stack Trace"
 * tab) can show where a workflow waits. It runs whether anyone asks or not, and it was more than half of the workflow
 * thread's CPU in the bench's profile (docs/performance.md, "The workflow thread's promise stacks").
 *
 * `skipWorkflowPromiseStacks` leaves that hook out of the SDK's workflow threads this process starts from now on:
 * each such thread gets one module preloaded (`--import` of a data: URL, so dev and the compiled build need no
 * extra file) that replaces the hook's installer before the SDK's thread code loads. Failures keep their stacks; the
 * stack trace query is refused ("Workflow stack traces are not enabled on this worker"). WORKFLOW_STACK_TRACES=1 keeps
 * the SDK's default (a worker restarted with it to look at a stuck workflow). Returns how to undo it (tests).
 */
export function skipWorkflowPromiseStacks(): () => void {
  const Original = workerThreads.Worker;
  const preload = `data:text/javascript,${encodeURIComponent(preloadSource(require.resolve(VM_SHARED)))}`;
  class WorkflowThreadWithoutPromiseStacks extends Original {
    constructor(filename: string | URL, options: workerThreads.WorkerOptions = {}) {
      const forWorkflows = String(filename).endsWith(WORKFLOW_THREAD_FILE);
      super(filename, forWorkflows ? { ...options, execArgv: [...(options.execArgv ?? process.execArgv), '--import', preload] } : options);
    }
  }
  workerThreads.Worker = WorkflowThreadWithoutPromiseStacks;
  return () => {
    workerThreads.Worker = Original;
  };
}

/** The SDK's thread entry (threaded-vm.js starts it with `new Worker(require.resolve('./workflow-worker-thread'))`). */
export const WORKFLOW_THREAD_FILE = `${sep}workflow${sep}workflow-worker-thread.js`;
/** The module whose `globalHandlers.install()` sets the hook, once per thread. */
export const VM_SHARED = '@temporalio/worker/lib/workflow/vm-shared.js';

/** Runs in the workflow thread before its own code: the same module instance the SDK's thread code requires next. */
function preloadSource(vmSharedPath: string): string {
  return [
    `const { createRequire } = process.getBuiltinModule('node:module');`,
    `const vmShared = createRequire(${JSON.stringify(vmSharedPath)})(${JSON.stringify(vmSharedPath)});`,
    `vmShared.globalHandlers.setPromiseHook = () => undefined;`,
  ].join('\n');
}
