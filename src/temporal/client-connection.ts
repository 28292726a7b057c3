import { InterceptingCall, Metadata, status as GrpcStatus, type Interceptor, type InterceptingListener, type NextCall } from '@grpc/grpc-js';
import { Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionOptions } from '@temporalio/client';

/**
 * The channel options of every service process's Temporal client (the API's, the worker's client).
 * gRPC's defaults suit a far server: reconnect backoff growing to two minutes, and a dead connection
 * noticed only after 45 s of keepalive. Ours is a frontend next to the process; after a partition or
 * a restart, a client still backing off keeps an API replica unready (and its requests failing) for
 * minutes after Temporal is back. So: reconnect within seconds, and notice a silent link in 20 s.
 */
export const TEMPORAL_CHANNEL_ARGS = {
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // Not below the server's keepalive enforcement minimum (10 s), or it closes the connection.
  'grpc.keepalive_time_ms': 15_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
} as const;

export const CONNECTION_CLOSED_DETAILS = 'the Temporal connection is closed';

/**
 * The SDK's retry interceptor waits between attempts on a timer (up to 5 s). If the connection is
 * closed meanwhile (a shutdown while Temporal was unreachable), the next attempt's call creation
 * throws "Channel has been shut down" from inside that timer: an uncaught exception that crashes the
 * process, and the call's caller never hears back. Placed after the retry interceptor, this ends such
 * an attempt as CANCELLED (not retried), so the caller's promise rejects instead.
 */
export const endCallsAfterClose: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (err) {
    if (!(err instanceof Error && /channel has been shut down/i.test(err.message))) throw err;
    return new InterceptingCall(endedCall(GrpcStatus.CANCELLED, CONNECTION_CLOSED_DETAILS));
  }
};

/** A call that sends nothing and ends with `code` as soon as it is started. */
function endedCall(code: GrpcStatus, details: string): ReturnType<NextCall> {
  return {
    start(_metadata: Metadata, listener?: Partial<InterceptingListener>) {
      process.nextTick(() => listener?.onReceiveStatus?.({ code, details, metadata: new Metadata() }));
    },
    cancelWithStatus() {},
    getPeer: () => '',
    sendMessageWithContext() {},
    sendMessage() {},
    startRead() {},
    halfClose() {},
    getAuthContext: () => null,
  };
}

export function temporalConnectionOptions(address: string): ConnectionOptions {
  return {
    address,
    channelArgs: TEMPORAL_CHANNEL_ARGS,
    // The SDK's default list (its retry interceptor) with the close guard after it.
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), endCallsAfterClose],
  };
}

export function connectTemporal(address: string): Promise<Connection> {
  return Connection.connect(temporalConnectionOptions(address));
}
