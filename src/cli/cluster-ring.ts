import { CLUSTER_PORTS } from '../dev/cluster-ports';
import { ownersLine, TemporalAdmin } from '../dev/temporal-ring';

/**
 * `npm run cluster:ring`: the Temporal server nodes of `npm run start:cluster` as their admin API sees them: each
 * node's membership ring per service (a node that is down, or not joined yet, is missing from the others' rings)
 * and which history host holds each shard. Exits 1 when a node does not answer or a shard has no owner.
 */
async function main(): Promise<void> {
  let healthy = true;
  for (const [i, node] of CLUSTER_PORTS.temporalNodes.entries()) {
    const admin = new TemporalAdmin(`127.0.0.1:${node.frontend}`);
    try {
      const view = await admin.describeCluster();
      const rings = Object.entries(view.rings).map(([role, members]) => `${role} [${members.join(', ')}]`);
      process.stdout.write(`temporal-${i + 1} (frontend 127.0.0.1:${node.frontend}) sees: ${rings.join('; ')}\n`);
    } catch (err) {
      healthy = false;
      process.stdout.write(`temporal-${i + 1} (frontend 127.0.0.1:${node.frontend}) does not answer: ${err instanceof Error ? err.message : String(err)}\n`);
    } finally {
      admin.close();
    }
  }
  const admin = new TemporalAdmin(`127.0.0.1:${CLUSTER_PORTS.temporal}`);
  try {
    const owners = await admin.shardOwners();
    process.stdout.write(`history shards by host: ${ownersLine(owners)}\n`);
    if (owners.unowned.length) healthy = false;
  } finally {
    admin.close();
  }
  process.exit(healthy ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`cluster:ring failed: ${err instanceof Error ? err.message : String(err)} (is npm run start:cluster running?)\n`);
  process.exit(1);
});
