import { condition, patched } from '@temporalio/workflow';

/**
 * Steps woken in the same activation used to run together: the SDK checks every blocked
 * condition in one pass before any woken step continues, so all of them saw "not busy". Under a
 * burst of updates, a payment ran its execution step five times at once, and the order in which
 * those local activities finished could not be replayed (a non-determinism error that stalled
 * the payment). The marker is recorded only where two steps met, so a history without contention
 * stays as it was.
 */
export const SERIAL_STEPS_PATCH = 'serial-steps-woken-together';

/**
 * Serializes a workflow's steps that must not interleave: its update handlers and its own loop
 * each run their step (an activity and what follows from its answer) only when no other step
 * is running, so each is answered against the state the one before it left.
 */
export function oneStepAtATime() {
  let busy = false;
  return {
    /** True while a step runs. */
    get busy() {
      return busy;
    },
    async run<T>(step: () => Promise<T>): Promise<T> {
      await condition(() => !busy);
      // Another step woken with this one took the turn first: wait for it (histories recorded
      // before the patch ran such steps together, and replay them so).
      while (busy && patched(SERIAL_STEPS_PATCH)) await condition(() => !busy);
      busy = true;
      try {
        return await step();
      } finally {
        busy = false;
      }
    },
  };
}
