import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeSkippingEnvironment } from '../support/time-skipping';

// On a saturated core the Java test server can take longer than the SDK's fixed 5 s to answer
// (issue 37): the workflow tests' environment must still come up, from that one start. A wrapper
// makes the start slower than the SDK's window.
test('a time-skipping server slower to listen than the SDK start window is waited for, not started again', async () => {
  const real = process.env.TEMPORAL_TEST_SERVER_PATH;
  expect(real).toBeTruthy(); // bin/test provides it
  const dir = mkdtempSync(join(tmpdir(), 'slow-test-server-'));
  const starts = join(dir, 'starts');
  const wrapper = join(dir, 'server.sh');
  writeFileSync(wrapper, `#!/bin/bash\necho started >> '${starts}'\nsleep 7\nexec '${real}' "$@"\n`);
  chmodSync(wrapper, 0o700);
  process.env.TEMPORAL_TEST_SERVER_PATH = wrapper;
  try {
    const env = await timeSkippingEnvironment();
    try {
      expect(readFileSync(starts, 'utf8').trim().split('\n')).toHaveLength(1);
      // It skips time: a day of server time passes in far less than a day.
      const serverBefore = await env.currentTimeMs();
      await env.sleep('1 day');
      expect((await env.currentTimeMs()) - serverBefore).toBeGreaterThanOrEqual(24 * 3600_000);
    } finally {
      await env.teardown();
    }
  } finally {
    process.env.TEMPORAL_TEST_SERVER_PATH = real;
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
