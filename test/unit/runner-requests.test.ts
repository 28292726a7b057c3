import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askRunner, serveRunnerRequests, type RunnerRequest } from '../../src/dev/runner-requests';

// How `npm run deploy:…` asks the runner of `npm run start:cluster` (src/dev/runner-requests.ts): a request file,
// handled one at a time, answered beside it; a refusal reaches the script as an error; nothing is left behind.

let dir: string;
beforeEach(() => (dir = join(mkdtempSync(join(tmpdir(), 'runner-requests-')), 'requests')));
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

test('requests are answered in turn; a refusal is an error; no file is left', async () => {
  const handled: RunnerRequest[] = [];
  const runner = serveRunnerRequests(
    dir,
    async (request) => {
      handled.push(request);
      if (request.action === 'retire') return { ok: false, error: 'no replica named api-9' };
      return request.action === 'status'
        ? { ok: true, replicas: [{ name: 'worker-1', running: true, buildDir: '/b', deploymentName: 'd', buildId: 'A' }] }
        : { ok: true };
    },
    20,
  );
  try {
    const [status, restarted] = await Promise.all([askRunner(dir, { action: 'status' }, 5_000), askRunner(dir, { action: 'restart', name: 'api-1' }, 5_000)]);
    expect(status.replicas).toEqual([{ name: 'worker-1', running: true, buildDir: '/b', deploymentName: 'd', buildId: 'A' }]);
    expect(restarted).toEqual({ ok: true });
    await expect(askRunner(dir, { action: 'retire', name: 'api-9' }, 5_000)).rejects.toThrow(
      'refused {"action":"retire","name":"api-9"}: no replica named api-9',
    );
    expect(handled.map((r) => r.action).sort()).toEqual(['restart', 'retire', 'status']);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    runner.stop();
  }
});

test('with no runner answering, the script gives up and takes its request back', async () => {
  serveRunnerRequests(dir, async () => ({ ok: true }), 20).stop();
  await expect(askRunner(dir, { action: 'status' }, 300)).rejects.toThrow('did not answer');
  expect(readdirSync(dir)).toEqual([]);
});
