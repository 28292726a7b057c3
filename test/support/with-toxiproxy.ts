import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `describe` when toxiproxy is built, else `describe.skip` with a line saying why. CI provisions the binary
 * (bin/lib/toxiproxy.sh); `--cached` never builds it in a test, so a newcomer's `npm test` skips these. Sets
 * TOXIPROXY_DIR (what Toxiproxy.start reads) when it is not set already.
 */
export function describeWithToxiproxy(what: string): jest.Describe {
  const built = spawnSync('bash', [resolve(__dirname, '../../bin/lib/toxiproxy.sh'), '--cached'], { encoding: 'utf8' });
  if (built.status !== 0) {
    console.warn(`${what} skipped: toxiproxy is not built yet (bin/lib/toxiproxy.sh builds it; .ci/run does)`);
    return describe.skip;
  }
  process.env.TOXIPROXY_DIR ??= built.stdout.trim();
  return describe;
}
