import { TestWorkflowEnvironment } from '@temporalio/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';

/** How long the Java test server may take to listen: a JVM on a saturated core takes seconds, not minutes. */
const LISTEN_DEADLINE_MS = 90_000;

/**
 * The Java time-skipping test server: the Maven-built one from bin/test when available, else
 * the SDK's own download (for machines with internet).
 *
 * The SDK, when it starts the server itself, gives it a fixed 5 s to answer (sdk-core's ephemeral
 * server, not configurable) and kills it past that; a JVM on a saturated core misses that window
 * again and again (issue 37). So the server bin/test provides is started here, waited for as long
 * as it needs, and handed to the SDK as an existing time-skipping server.
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (!path) return withSearchAttributes(await TestWorkflowEnvironment.createTimeSkipping());
  const port = await freePort();
  const server = spawn(path, [String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const stopServer = () => server.kill('SIGKILL');
  process.once('exit', stopServer);
  try {
    await listening(server, port);
    const env = await existingTimeSkippingServer(`127.0.0.1:${port}`);
    const sdkTeardown = env.teardown.bind(env);
    env.teardown = async () => {
      try {
        await sdkTeardown();
      } finally {
        process.off('exit', stopServer);
        await stopped(server);
      }
    };
    return await withSearchAttributes(env);
  } catch (err) {
    process.off('exit', stopServer);
    await stopped(server);
    throw err;
  }
}

async function withSearchAttributes(env: TestWorkflowEnvironment): Promise<TestWorkflowEnvironment> {
  await ensureSearchAttributes(env.connection, 'default');
  return env;
}

/**
 * The SDK's own factory, with the server marked as existing but time-skipping. Its public
 * `createFromExistingServer` turns time skipping off, and the flag decides both the client kind
 * and the test-service connection, so the factory underneath is the one way in.
 */
async function existingTimeSkippingServer(address: string): Promise<TestWorkflowEnvironment> {
  const factory = (TestWorkflowEnvironment as unknown as { create?: (options: object) => Promise<TestWorkflowEnvironment> }).create;
  if (typeof factory !== 'function') throw new Error('@temporalio/testing no longer has TestWorkflowEnvironment.create: see test/support/time-skipping.ts');
  return factory.call(TestWorkflowEnvironment, { server: { type: 'existing' }, supportsTimeSkipping: true, namespace: 'default', address });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once the server accepts TCP connections; rejects if it exits first or never listens. */
async function listening(server: ChildProcess, port: number): Promise<void> {
  let output = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  const deadline = Date.now() + LISTEN_DEADLINE_MS;
  while (!(await accepts(port))) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the Java test server exited before listening on ${port}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the Java test server did not listen on ${port} within ${LISTEN_DEADLINE_MS / 1000} s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopped(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}
