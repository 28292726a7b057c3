import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';

/** How many times a start is tried whose server was not answering within the SDK's window. */
const START_ATTEMPTS = 4;

/**
 * The Java time-skipping test server: the Maven-built one from bin/test when available, else
 * the SDK's own download (for machines with internet).
 *
 * The SDK gives the server a fixed 5 s to answer after its process starts (sdk-core's ephemeral
 * server, not configurable), and kills it past that. A JVM on a saturated core can take longer to
 * come up (issue 37), so a start that timed out is tried again; any other failure is thrown at once.
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  for (let attempt = 1; ; attempt++) {
    try {
      const env = await TestWorkflowEnvironment.createTimeSkipping(path ? { server: { executable: { type: 'existing-path', path } } } : {});
      await ensureSearchAttributes(env.connection, 'default');
      return env;
    } catch (err) {
      // Not `instanceof Error`: the native bridge's errors come from another realm under jest.
      const startTimedOut = /Failed to start ephemeral server/i.test(String((err as { message?: unknown } | undefined)?.message));
      if (!startTimedOut || attempt >= START_ATTEMPTS) throw err;
    }
  }
}
