/**
 * The loopback ports of `npm run start:cluster`: none of `npm start`'s (API 3000, Temporal 7233, UI 8233,
 * metrics 9464-9466), so both can run side by side.
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
  /**
   * The Temporal server's nodes (one membership ring): `temporal` above is HAProxy in front of their frontends. Node 1
   * keeps the HTTP, membership and metrics ports of the single server there was; each node's history, matching and
   * worker are at frontend +1, +2, +6, its membership ports at the same offsets.
   */
  temporalNodes: [
    { frontend: 7350, http: 7343, membership: 6333, metrics: 9530 },
    { frontend: 7360, http: 7344, membership: 6343, metrics: 9531 },
  ],
} as const;
