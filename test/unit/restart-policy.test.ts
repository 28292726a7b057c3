import { decideRestart, REPLICA_RESTART_POLICY, type ReplicaRun } from '../../src/dev/restart-policy';

// start:cluster's replica supervision (src/dev/cluster.ts): when an exited API or worker is started again, and when not.

/** Runs that each lasted `upMs`, one right after the other (plus the wait the policy asked for). */
function runs(upMsEach: number[], gapMs = 0, from = 1_000_000): ReplicaRun[] {
  const list: ReplicaRun[] = [];
  let at = from;
  for (const upMs of upMsEach) {
    list.push({ startedAt: at, exitedAt: at + upMs });
    at += upMs + gapMs;
  }
  return list;
}

test('a replica that exits after a long run is started again after the first delay', () => {
  expect(decideRestart(runs([3_600_000]))).toEqual({ restart: true, afterMs: 500, exitsInWindow: 1 });
});

test('short runs in a row double the wait: 0.5 s, 1 s, 2 s, 4 s', () => {
  const waits = [1, 2, 3, 4].map((n) => decideRestart(runs(Array(n).fill(1_000), 30_000)));
  expect(waits.map((d) => (d.restart ? d.afterMs : 'give up'))).toEqual([500, 1_000, 2_000, 4_000]);
});

test('the wait stops growing at 10 s', () => {
  // Spaced out so that the give-up rule (5 exits within a minute) does not apply.
  const decision = decideRestart(runs(Array(8).fill(59_000), 60_000));
  expect(decision).toEqual({ restart: true, afterMs: 10_000, exitsInWindow: 1 });
});

test('a run that lasted a minute resets the back-off', () => {
  const history = [...runs([1_000, 1_000, 1_000], 5_000), ...runs([60_000], 0, 2_000_000)];
  expect(decideRestart(history)).toMatchObject({ restart: true, afterMs: 500 });
  // …and the short runs after it count from there.
  const after = [...history, ...runs([2_000], 0, 2_100_000)];
  expect(decideRestart(after)).toMatchObject({ restart: true, afterMs: 500 });
  expect(decideRestart([...after, ...runs([2_000], 0, 2_200_000)])).toMatchObject({ restart: true, afterMs: 1_000 });
});

test('the fifth exit within 60 s gives up; four do not', () => {
  expect(decideRestart(runs([1_000, 1_000, 1_000, 1_000], 2_000))).toMatchObject({ restart: true, exitsInWindow: 4 });
  expect(decideRestart(runs([1_000, 1_000, 1_000, 1_000, 1_000], 2_000))).toEqual({ restart: false, exitsInWindow: 5, windowMs: 60_000 });
});

test('five exits spread over more than a minute are restarted (exits older than the window no longer count)', () => {
  // Exits at 10, 30, 50, 70 and 90 s: the window behind the last one holds 3 of them.
  const history = [10_000, 30_000, 50_000, 70_000, 90_000].map((exitedAt) => ({ startedAt: exitedAt - 5_000, exitedAt }));
  expect(decideRestart(history)).toMatchObject({ restart: true, exitsInWindow: 3 });
});

test('the policy is the one the docs give: 0.5 s doubling to 10 s, reset after a minute up, 5 exits in 60 s', () => {
  expect(REPLICA_RESTART_POLICY).toEqual({ firstDelayMs: 500, maxDelayMs: 10_000, resetAfterUpMs: 60_000, giveUpAfterExits: 5, giveUpWindowMs: 60_000 });
  expect(() => decideRestart([])).toThrow();
});
