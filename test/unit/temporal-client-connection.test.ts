import { status as GrpcStatus } from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { createServer } from 'node:net';
import { CONNECTION_CLOSED_DETAILS, temporalConnectionOptions } from '../../src/temporal/client-connection';

/** A local port nothing listens on: connections to it are refused at once, as to a Temporal that is down. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

test('a call waiting to retry when its connection is closed is rejected as CANCELLED, not thrown from a timer', async () => {
  const connection = Connection.lazy(temporalConnectionOptions(`127.0.0.1:${await refusingPort()}`));
  // Refused, so the SDK's retry interceptor waits ~100-200 ms before each new attempt.
  const call = connection.workflowService.getSystemInfo({});
  const settled = call.then(
    () => 'answered',
    (err: { code?: number; details?: string }) => err,
  );
  await new Promise((waited) => setTimeout(waited, 100));
  await connection.close();
  // Without the guard the next attempt throws "Channel has been shut down" from its timer (this test
  // fails with that uncaught error) and the call never settles.
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([settled, new Promise((late) => (timer = setTimeout(() => late('still pending'), 8_000)))]);
  clearTimeout(timer);
  expect(outcome).toMatchObject({ code: GrpcStatus.CANCELLED, details: CONNECTION_CLOSED_DETAILS });
});
