import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcess, parseProcessRecord, processesWithArgs, stopProcess } from './processes';

/**
 * Processes an earlier runner of this checkout left running (it was SIGKILLed before its children's
 * watchdogs existed, or a watchdog itself was killed): the ones its pid files in `runDir` still name,
 * and any Temporal dev server on this checkout's SQLite file (the port it holds would fail this start).
 */
export async function stopLeftovers(runDir: string, temporalDbFile: string, say: (msg: string) => void): Promise<void> {
  const found = new Map<number, string>();
  let files: string[] = [];
  try {
    files = readdirSync(runDir).filter((f) => f.endsWith('.pid'));
  } catch {
    // no run folder yet
  }
  for (const file of files) {
    const record = (() => {
      try {
        return parseProcessRecord(readFileSync(join(runDir, file), 'utf8'));
      } catch {
        return undefined;
      }
    })();
    if (record && isSameProcess(record.pid, record.start)) found.set(record.pid, file.replace(/\.pid$/, ''));
    rmSync(join(runDir, file), { force: true });
  }
  for (const pid of processesWithArgs(['--db-filename', temporalDbFile])) found.set(pid, 'temporal');
  for (const [pid, name] of found) {
    say(`stopping the ${name} left over from an earlier start (pid ${pid})`);
    await stopProcess(pid);
  }
}
