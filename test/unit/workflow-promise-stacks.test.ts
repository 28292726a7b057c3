import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import { loadConfig } from '../../src/config';
import { skipWorkflowPromiseStacks, VM_SHARED, WORKFLOW_THREAD_FILE } from '../../worker/workflow-promise-stacks';

// worker/workflow-promise-stacks.ts relies on two things inside @temporalio/worker: the file its workflow threads
// run and the installer of the promise hook. A new SDK that moves either must fail here, not quietly bring the
// hook's CPU back.

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'promise-stacks-'));
  mkdirSync(join(dir, 'workflow'));
  // What the SDK's thread does first (reusable-vm.js: globalHandlers.install()), then says whether the hook is on.
  const probe = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { globalHandlers } = require(workerData.vmShared);
    globalHandlers.install();
    parentPort.postMessage(globalHandlers.promiseHookInstalled);
  `;
  writeFileSync(join(dir, 'workflow', 'workflow-worker-thread.js'), probe);
  writeFileSync(join(dir, 'other-thread.js'), probe);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `file` as a thread, as the SDK does (`new Worker(path)`, through the module's export), and reads its answer. */
async function hookInstalledIn(file: string): Promise<boolean> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as the SDK reaches it: the module's export, read at each start
  const threads = require('node:worker_threads') as typeof WorkerThreads;
  const thread = new threads.Worker(file, { workerData: { vmShared: require.resolve(VM_SHARED) } });
  try {
    return await new Promise<boolean>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
  } finally {
    await thread.terminate();
  }
}

test('the SDK still starts its workflow threads from the file, and sets the hook through the installer, this relies on', () => {
  expect(require.resolve('@temporalio/worker/lib/workflow/workflow-worker-thread.js').endsWith(WORKFLOW_THREAD_FILE)).toBe(true);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's internal module, as the preload reaches it
  const { globalHandlers } = require(VM_SHARED) as { globalHandlers: Record<string, unknown> };
  expect(typeof Object.getPrototypeOf(globalHandlers).setPromiseHook).toBe('function');
  expect(globalHandlers).toHaveProperty('promiseHookInstalled');
});

test('a workflow thread started after skipWorkflowPromiseStacks has no promise hook; other threads and later ones keep it', async () => {
  expect(await hookInstalledIn(join(dir, 'workflow', 'workflow-worker-thread.js'))).toBe(true);
  const restore = skipWorkflowPromiseStacks();
  try {
    expect(await hookInstalledIn(join(dir, 'workflow', 'workflow-worker-thread.js'))).toBe(false);
    expect(await hookInstalledIn(join(dir, 'other-thread.js'))).toBe(true);
  } finally {
    restore();
  }
  expect(await hookInstalledIn(join(dir, 'workflow', 'workflow-worker-thread.js'))).toBe(true);
});

test('WORKFLOW_STACK_TRACES is a flag like the others (off by default); anything else stops the start', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', MASTER_KEY: Buffer.alloc(32).toString('base64') };
  expect(loadConfig(base).workflowStackTraces).toBe(false);
  expect(loadConfig({ ...base, WORKFLOW_STACK_TRACES: '1' }).workflowStackTraces).toBe(true);
  expect(loadConfig({ ...base, WORKFLOW_STACK_TRACES: '0' }).workflowStackTraces).toBe(false);
  expect(() => loadConfig({ ...base, WORKFLOW_STACK_TRACES: 'yes' })).toThrow('WORKFLOW_STACK_TRACES must be 1 or 0, not "yes"');
});
