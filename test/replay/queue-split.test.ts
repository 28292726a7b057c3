import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayHistory } from '../support/replay';

// Before the task queues were split, production ran every workflow on `payments`, children included. A worker of
// this build replays such a run: its workflow code now starts a webhook delivery on `webhooks`, a queue name the
// replay does not compare, so the run goes on. The committed histories ran on test queues (where a child stays on
// its parent's queue); here they are replayed as if they had run on `payments`.

const dir = join(__dirname, '../histories');
const withChildren = [
  'customerVerification/v1-resolve-errors-then-approved.json',
  'incomingPayment/v1-sandbox-funding.json',
  'incomingPayment/v3-first-attempt-refused.json',
  'quote/v2-executed.json',
];

function onPayments(file: string) {
  const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { events: { workflowExecutionStartedEventAttributes?: { taskQueue: { name: string } } }[] };
  const recorded = json.events[0]!.workflowExecutionStartedEventAttributes!.taskQueue.name;
  return historyFromJSON(JSON.parse(JSON.stringify(json).replaceAll(`"${recorded}"`, '"payments"')));
}

test.each(withChildren)('%s, run on `payments` before the split, replays', async (file) => {
  const history = onPayments(file);
  expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.taskQueue?.name).toBe('payments');
  const code = readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8');
  await replayHistory(code, history);
});
