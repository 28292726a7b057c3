import { createToken } from '../../src/contexts/platforms/services/platforms';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';

/**
 * What the crash campaign needs of a stack, whichever topology runs it: the dev stack (test/proof/stack.ts: one
 * API, one worker, the Temporal dev server) or the production one (test/proof/cluster-stack.ts: two APIs behind
 * HAProxy, two workers, the Temporal server on PostgreSQL). Every process is killable and restarted on the same
 * ports and data; one that exits on its own is restarted by the stack and counted.
 */
export interface ProofStack {
  /** Logs and results. */
  readonly dir: string;
  /** What the campaign kills, one at a time (kill/restart take these names). */
  readonly components: readonly string[];
  /** The API and worker processes by name: counter() reads each one's metrics. */
  readonly apiProcesses: readonly string[];
  readonly workerProcesses: readonly string[];
  /** Exits no kill caused, by process name (each was restarted). */
  readonly unplannedExits: Record<string, number>;
  readonly databaseUrl: string;
  readonly temporalAddress: string;
  /** The versioned base of the API's routes, where partners send their requests. */
  readonly baseUrl: string;
  readonly masterKeyBase64: string;
  /** SIGKILL, no warning. */
  kill(component: string): void;
  /** Starts a killed component again on its ports and data; resolves once it is ready. */
  restart(component: string): Promise<void>;
  stop(): Promise<void>;
  /** The sum of a Prometheus counter one API or worker process serves (undefined while it does not answer). */
  counter(process: string, name: string, labels?: Record<string, RegExp>): Promise<number | undefined>;
  /** Until the service answers its readiness check (PostgreSQL and Temporal reachable). */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  sandboxPartner(name: string, webhookEndpoint: string): Promise<Partner>;
}

export interface Partner {
  platformId: string;
  /** The Authorization header of its sandbox token. */
  authorization: string;
}

/**
 * Where a service process reaches PostgreSQL or Temporal: given the real port, the port it should use instead
 * (a proxy's, on 127.0.0.1). Called once per process and upstream, before the process first starts. Migrations
 * and the stack's own admin connections stay direct.
 */
export type Upstream = (process: string, service: 'postgres' | 'temporal', port: number) => Promise<number>;

/**
 * A platform of the stack's own (USD and EUR, a regulated institution, so that every route is open to it) with a
 * sandbox token: the partner a driver acts as.
 */
export async function createSandboxPartner(databaseUrl: string, masterKeyBase64: string, name: string, webhookEndpoint: string): Promise<Partner> {
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    const em = orm.em.fork();
    const platform = await createPlatform(em, { name, currencies: ['USD', 'EUR'], webhookEndpoint, isRegulatedFinancialInstitution: true });
    const token = await createToken(em, parseMasterKey(masterKeyBase64), platform.id, 'SANDBOX');
    return { platformId: platform.id, authorization: `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}` };
  } finally {
    await orm.close();
  }
}

/** A URL's port replaced (DATABASE_URL through a proxy). */
export function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
