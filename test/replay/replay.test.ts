import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Every committed history must replay on the current workflow code: a change that breaks
// determinism for running workflows fails here before it reaches production.

const dir = join(__dirname, '../histories');
const histories = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, history: historyFromJSON(JSON.parse(readFileSync(join(dir, file), 'utf8'))) }));

const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function workflowTypeOf(history: (typeof histories)[number]['history']): string {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';
}

test('there is a recorded history for every workflow type', () => {
  const types = new Set(histories.map((h) => workflowTypeOf(h.history)));
  expect([...types].sort()).toEqual(['customerVerification', 'incomingPayment', 'webhookDelivery']);
});

describe('current workflow code', () => {
  const code = readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8');
  test.each(histories.map((h) => [h.file, h.history] as const))('replays %s', async (_file, history) => {
    // debugMode false: promise hooks in the main thread break WebCrypto later (stack guide T3).
    await Worker.runReplayHistory({ workflowBundle: { code }, debugMode: false } as Parameters<typeof Worker.runReplayHistory>[0], history);
  });
});

describe('an incompatible change', () => {
  let code: string;
  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({ workflowsPath: require.resolve('./incompatible'), logger: quiet }));
  });

  test.each(histories.map((h) => [h.file, h.history] as const))('fails to replay %s', async (_file, history) => {
    await expect(
      Worker.runReplayHistory({ workflowBundle: { code }, debugMode: false } as Parameters<typeof Worker.runReplayHistory>[0], history),
    ).rejects.toThrow(/[Nn]ondetermin|[Dd]eterminism/);
  });
});
