import { ensureNamespace } from '../dev/cluster-configs';

/**
 * One-shot setup of a Temporal server that starts with no namespace (the production server, not the dev
 * server): registers `default` and the service's search attributes, as `npm run start:cluster` does, once the
 * frontend answers. docker-compose.yml runs it before the API and the workers; a Kubernetes Job can too.
 * Safe to run again: what exists is left alone.
 */
async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const say = (message: string) => process.stderr.write(`[temporal-namespace] ${message}\n`);
  // The server may still be starting (its services join over a few seconds): try for two minutes.
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureNamespace(address, say);
      say(`namespace default and the search attributes are registered on ${address}`);
      return;
    } catch (err) {
      if (attempt >= 60) throw err;
      await new Promise<void>((done) => setTimeout(done, 2_000));
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`temporal-namespace failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
