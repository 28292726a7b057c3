import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode } from '@temporalio/worker';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { replayHistory } from '../support/replay';
import { TRACING_WORKFLOW_MODULES, tracingWorkerOptions } from '../../src/temporal/tracing';
import { workflowKinds } from '../../src/temporal/workflow-kind';

// Every committed history must replay on the current workflow code: a change that breaks
// determinism for running workflows fails here before it reaches production. Histories are kept
// per workflow type and version (test/histories/<workflowType>/<version>-<scenario>.json) and are
// never overwritten, so runs started by any earlier version stay covered.

const dir = join(__dirname, '../histories');

function jsonFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

const histories = jsonFiles(dir)
  .sort()
  .map((path) => ({ file: relative(dir, path), history: historyFromJSON(JSON.parse(readFileSync(path, 'utf8'))) }));

const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const replay = replayHistory;

function workflowTypeOf(history: (typeof histories)[number]['history']): string {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';
}

test('every workflow type the worker runs has a recorded history, filed under its own name', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle entry exports every workflow type's kind
  const types = workflowKinds(require('../../workflows'))
    .map((kind) => kind.type)
    .sort();
  expect([...new Set(histories.map((h) => workflowTypeOf(h.history)))].sort()).toEqual(types);
  for (const { file, history } of histories) expect(file.split('/')[0]).toBe(workflowTypeOf(history));
});

describe('current workflow code', () => {
  const code = readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8');
  test.each(histories.map((h) => [h.file, h.history] as const))('replays %s', async (_file, history) => {
    await replay(code, history);
  });
});

// Tracing adds headers to what workflows schedule, never commands: switching it on or off for a
// running system leaves every run replayable.
describe('the workflow code with tracing on', () => {
  let code: string;
  const { sinks } = tracingWorkerOptions({ resource: Resource.empty(), spanProcessor: new NoopSpanProcessor(), shutdown: async () => undefined });
  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      workflowInterceptorModules: TRACING_WORKFLOW_MODULES,
      logger: quiet,
    }));
  });

  test.each(histories.map((h) => [h.file, h.history] as const))('replays %s', async (_file, history) => {
    await replay(code, history, { sinks });
  });
});

describe('an incompatible change (a timer before every workflow)', () => {
  let code: string;
  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      workflowInterceptorModules: [require.resolve('./shifted-commands')],
      logger: quiet,
    }));
  });

  test.each(histories.map((h) => [h.file, h.history] as const))('fails to replay %s', async (_file, history) => {
    await expect(replay(code, history)).rejects.toThrow(/[Nn]ondetermin|[Dd]eterminism/);
  });
});
