import type { ChildProcess } from 'node:child_process';

/**
 * Stops the runner's children in reverse start order (what started last depends on what started
 * first): SIGINT each, and SIGKILL its whole process group (the tether and what it runs) if it has
 * not exited within `graceMs`.
 */
export async function stopChildren(children: readonly { name: string; proc: ChildProcess }[], say: (line: string) => void, graceMs: number): Promise<void> {
  for (const { name, proc } of [...children].reverse()) {
    if (proc.exitCode !== null || proc.signalCode !== null) continue;
    proc.kill('SIGINT');
    await new Promise<void>((done) => {
      const timer = setTimeout(() => {
        say(`${name} did not stop in time; killing it`);
        try {
          process.kill(-proc.pid!, 'SIGKILL');
        } catch {
          proc.kill('SIGKILL');
        }
      }, graceMs);
      proc.once('exit', () => {
        clearTimeout(timer);
        done();
      });
    });
  }
}
