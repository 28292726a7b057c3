import { Connection } from '@temporalio/client';

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

export function connectTemporal(address: string): Promise<Connection> {
  return Connection.connect({ address, channelArgs: TEMPORAL_CHANNEL_ARGS });
}
