/**
 * The loopback ports of `npm run start:cluster`: none of `npm start`'s (API 3000, Temporal 7233, UI 8233,
 * metrics 9464-9466), so both can run side by side. The Temporal server's services take frontend+1 (history),
 * +2 (matching) and +6 (worker), each with a membership port at the same offset.
 */
export const CLUSTER_PORTS = {
  api: 3300,
  apiReplicas: [3301, 3302],
  apiMetrics: [9501, 9502],
  workerMetrics: [9511, 9512],
  sdkMetrics: [9521, 9522],
  temporal: 7333,
  temporalHttp: 7343,
  temporalMembership: 6333,
  temporalMetrics: 9530,
  ui: 8333,
} as const;
