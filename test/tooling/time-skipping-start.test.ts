import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeSkippingEnvironment } from '../support/time-skipping';

// On a saturated core the Java test server can take longer than the SDK's fixed 5 s to answer
// (issue 37): the workflow tests' environment must still come up. A wrapper makes its first start slow.
test('a time-skipping server that misses the SDK start window once is started again', async () => {
  const real = process.env.TEMPORAL_TEST_SERVER_PATH;
  expect(real).toBeTruthy(); // bin/test provides it
  const dir = mkdtempSync(join(tmpdir(), 'slow-test-server-'));
  const starts = join(dir, 'starts');
  const wrapper = join(dir, 'server.sh');
  writeFileSync(wrapper, `#!/bin/bash\necho started >> '${starts}'\n[ "$(wc -l < '${starts}')" -gt 1 ] || sleep 7\nexec '${real}' "$@"\n`);
  chmodSync(wrapper, 0o700);
  process.env.TEMPORAL_TEST_SERVER_PATH = wrapper;
  try {
    const env = await timeSkippingEnvironment();
    await env.teardown();
    expect(env.supportsTimeSkipping).toBe(true);
    expect(readFileSync(starts, 'utf8').trim().split('\n')).toHaveLength(2);
  } finally {
    process.env.TEMPORAL_TEST_SERVER_PATH = real;
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
