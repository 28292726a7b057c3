import { condition } from '@temporalio/workflow';

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
      busy = true;
      try {
        return await step();
      } finally {
        busy = false;
      }
    },
  };
}
