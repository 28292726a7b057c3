import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { isSameProcess, parseProcessRecord, processRecord } from './processes';

/**
 * One `npm start` per checkout: the runner's pid (and start time) in `.data/up.pid`. A second start
 * finds it alive and leaves the running stack alone; a file left by a runner that died is taken over.
 */
export type RunnerLock = { acquired: true; release: () => void } | { acquired: false; holderPid: number };

export function acquireRunnerLock(file: string): RunnerLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, processRecord(process.pid), { flag: 'wx', mode: 0o644 });
      return { acquired: true, release: () => releaseIfOurs(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && isSameProcess(holder.pid, holder.start)) return { acquired: false, holderPid: holder.pid };
    try {
      unlinkSync(file); // left by a runner that is gone
    } catch {
      // another start took it over meanwhile: the next attempt tells
    }
  }
  const holder = readHolder(file);
  return { acquired: false, holderPid: holder?.pid ?? 0 };
}

function readHolder(file: string) {
  try {
    return parseProcessRecord(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function releaseIfOurs(file: string): void {
  if (readHolder(file)?.pid === process.pid) unlinkSync(file);
}
