import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * A PATH of its own for running the bin/lib scripts as on another machine: only the listed real
 * commands (linked from this one) plus fakes written by the test, so that "missing" can be staged.
 */
export class FakePath {
  readonly dir = mkdtempSync(join(tmpdir(), 'fake-path-'));
  readonly bin = join(this.dir, 'bin');

  constructor(realCommands: string[]) {
    spawnSync('mkdir', ['-p', this.bin]);
    for (const name of realCommands) {
      const found = spawnSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
      if (!found) throw new Error(`${name} is not installed here`);
      symlinkSync(found, join(this.bin, name));
    }
  }

  /** An executable bash script on this PATH. */
  fake(name: string, body: string): string {
    const file = join(this.bin, name);
    writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  run(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
    const result = spawnSync(script, args, { encoding: 'utf8', env: { HOME: this.dir, ...env, PATH: this.bin }, timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
