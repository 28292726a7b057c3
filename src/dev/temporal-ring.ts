import { Client, credentials, Metadata } from '@grpc/grpc-js';
import protobuf from 'protobufjs';

/**
 * The Temporal server's membership ring and history shard owners, as its admin API (temporal.server.api.adminservice.v1,
 * which the TypeScript SDK does not expose) reports them: for `npm run cluster:ring` and the drill that loses a node.
 * Only the fields read here are declared (protobuf skips the others); their numbers are the server v1.29.1 protos'
 * (proto/internal/temporal/server/api/adminservice/v1/request_response.proto, cluster/v1/message.proto).
 */
const messages = protobuf.Root.fromJSON({
  nested: {
    DescribeClusterRequest: { fields: { clusterName: { type: 'string', id: 1 } } },
    HostInfo: { fields: { identity: { type: 'string', id: 1 } } },
    RingInfo: { fields: { role: { type: 'string', id: 1 }, memberCount: { type: 'int32', id: 2 }, members: { rule: 'repeated', type: 'HostInfo', id: 3 } } },
    MembershipInfo: {
      fields: {
        currentHost: { type: 'HostInfo', id: 1 },
        reachableMembers: { rule: 'repeated', type: 'string', id: 2 },
        rings: { rule: 'repeated', type: 'RingInfo', id: 3 },
      },
    },
    DescribeClusterResponse: {
      fields: { serverVersion: { type: 'string', id: 2 }, membershipInfo: { type: 'MembershipInfo', id: 3 }, historyShardCount: { type: 'int32', id: 6 } },
    },
    DescribeHistoryHostRequest: { fields: { hostAddress: { type: 'string', id: 1 }, shardId: { type: 'int32', id: 2 } } },
    DescribeHistoryHostResponse: {
      fields: { shardsNumber: { type: 'int32', id: 1 }, shardIds: { rule: 'repeated', type: 'int32', id: 2 }, address: { type: 'string', id: 5 } },
    },
  },
});

const SERVICE = '/temporal.server.api.adminservice.v1.AdminService';

/** What one frontend sees: each service's ring (role → member addresses, sorted) and the history shard count. */
export interface RingView {
  /** The frontend that answered (its gRPC address). */
  answeredBy: string;
  rings: Record<string, string[]>;
  historyShardCount: number;
}

/** Each history host's address → the shards it owns (sorted), and the shards no host reported. */
export interface ShardOwners {
  byHost: Record<string, number[]>;
  unowned: number[];
}

export class TemporalAdmin {
  private readonly client: Client;

  constructor(readonly address: string) {
    this.client = new Client(address, credentials.createInsecure());
  }

  close(): void {
    this.client.close();
  }

  async describeCluster(timeoutMs = 5_000): Promise<RingView> {
    const res = (await this.call('DescribeCluster', 'DescribeClusterRequest', 'DescribeClusterResponse', {}, timeoutMs)) as {
      membershipInfo?: { currentHost?: { identity?: string }; rings?: { role?: string; members?: { identity?: string }[] }[] };
      historyShardCount?: number;
    };
    const rings: Record<string, string[]> = {};
    for (const ring of res.membershipInfo?.rings ?? []) rings[ring.role ?? '?'] = (ring.members ?? []).map((m) => m.identity ?? '').sort();
    return { answeredBy: res.membershipInfo?.currentHost?.identity ?? '', rings, historyShardCount: res.historyShardCount ?? 0 };
  }

  /** Asks every member of the history ring (as this frontend sees it) which shards it holds. */
  async shardOwners(timeoutMs = 5_000): Promise<ShardOwners> {
    const { rings, historyShardCount } = await this.describeCluster(timeoutMs);
    const byHost: Record<string, number[]> = {};
    for (const host of rings.history ?? []) {
      const res = (await this.call('DescribeHistoryHost', 'DescribeHistoryHostRequest', 'DescribeHistoryHostResponse', { hostAddress: host }, timeoutMs)) as {
        shardIds?: number[];
      };
      byHost[host] = [...(res.shardIds ?? [])].sort((a, b) => a - b);
    }
    const owned = new Set(Object.values(byHost).flat());
    const unowned = Array.from({ length: historyShardCount }, (_, i) => i + 1).filter((shard) => !owned.has(shard));
    return { byHost, unowned };
  }

  private call(method: string, requestType: string, responseType: string, request: object, timeoutMs: number): Promise<object> {
    const req = messages.lookupType(requestType);
    const res = messages.lookupType(responseType);
    return new Promise((resolve, reject) =>
      this.client.makeUnaryRequest(
        `${SERVICE}/${method}`,
        (value: object) => Buffer.from(req.encode(req.create(value)).finish()),
        (bytes: Buffer) => res.toObject(res.decode(bytes), { defaults: true, arrays: true }),
        request,
        new Metadata(),
        { deadline: Date.now() + timeoutMs },
        (err, value) => (err || !value ? reject(err ?? new Error(`${method}: no answer`)) : resolve(value)),
      ),
    );
  }
}

/** "a 8, b 8" (host → shard count), for a figure line. */
export function ownersLine(owners: ShardOwners): string {
  const hosts = Object.entries(owners.byHost).map(([host, shards]) => `${host} ${shards.length} [${shards.join(',')}]`);
  return hosts.join('; ') + (owners.unowned.length ? `; unowned ${owners.unowned.length} [${owners.unowned.join(',')}]` : '');
}

/**
 * Resolves with the history ring once the node whose frontend is `address` sees at least `members` history hosts in
 * it (it joined; a restarted node may still see its previous life for a moment, so at least, not exactly).
 */
export async function waitForRing(address: string, members: number, timeoutMs: number): Promise<string[]> {
  const admin = new TemporalAdmin(address);
  const until = Date.now() + timeoutMs;
  try {
    for (;;) {
      const history = await admin.describeCluster().then(
        (view) => view.rings.history ?? [],
        () => [],
      );
      if (history.length >= members) return history;
      if (Date.now() > until)
        throw new Error(`the Temporal node at ${address} has ${history.length} of ${members} history hosts in its ring after ${timeoutMs / 1000} s`);
      await new Promise<void>((done) => setTimeout(done, 500));
    }
  } finally {
    admin.close();
  }
}
