import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';

/**
 * The Java time-skipping test server: the Maven-built one from bin/test when available, else
 * the SDK's own download (for machines with internet).
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  const env = await TestWorkflowEnvironment.createTimeSkipping(path ? { server: { executable: { type: 'existing-path', path } } } : {});
  await ensureSearchAttributes(env.connection, 'default');
  return env;
}
