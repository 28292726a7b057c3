import type { EntityManager } from '@mikro-orm/postgresql';
import {
  admission,
  afterAttempt,
  claimProbe,
  closedBreaker,
  pausedOutcome,
  verdictOf,
  type AttemptVerdict,
  type BreakerSettings,
  type BreakerState,
} from '../domain/delivery-breaker';
import type { DeliveryOutcome } from '../domain/webhook-retry';

/** The select list and join that read each event's endpoint breaker with the event (events `w`, platforms `p`), in the same statement. */
export const BREAKER_COLUMNS = breakerColumns('b.');

/** `paused_until` is read as epoch milliseconds: the same instant whatever the driver makes of a timestamp. */
function breakerColumns(table: string): string {
  return `${table}failures as b__failures, (extract(epoch from ${table}paused_until) * 1000)::float8 as b__paused_until_ms, ${table}pause_seconds as b__pause_seconds, ${table}version as b__version`;
}
export const BREAKER_JOIN = 'left join webhook_endpoint_breakers b on b.platform_id = w.platform_id and b.endpoint_key = md5(p.webhook_endpoint)';

/** A compare-and-set that lost to another worker is tried again on a fresh read, this many times; after that the count is dropped (a breaker may be a little late, never wrong about a receiver). */
const WRITE_ROUNDS = 5;

type PausedOutcome = Extract<DeliveryOutcome, { kind: 'PAUSED' }>;

interface Endpoint {
  platformId: string;
  url: string;
  state: BreakerState;
  /** The stored row's version; null: no row yet. */
  version: number | null;
  /** The state as stored (after this call's probe claim, if any): nothing is written while `state` equals it. */
  storedState: BreakerState;
  /** This call's verdicts in order, replayed on a fresh read when another worker wrote meanwhile. */
  verdicts: { verdict: AttemptVerdict; probe: boolean; nowMs: number }[];
}

function stateOf(row: Record<string, unknown>, settings: BreakerSettings): { state: BreakerState; version: number | null } {
  if (row.b__version === null || row.b__version === undefined) return { state: closedBreaker(settings), version: null };
  const pausedUntilMs = row.b__paused_until_ms;
  return {
    state: {
      failures: Number(row.b__failures),
      pausedUntilMs: pausedUntilMs === null || pausedUntilMs === undefined ? null : Math.round(Number(pausedUntilMs)),
      pauseSeconds: Number(row.b__pause_seconds),
    },
    version: Number(row.b__version),
  };
}

const sameState = (a: BreakerState, b: BreakerState) => a.failures === b.failures && a.pausedUntilMs === b.pausedUntilMs && a.pauseSeconds === b.pauseSeconds;

/**
 * The breakers of the endpoints one delivery activity posts to (delivery-breaker.ts has the rules):
 * read with the events, asked before each attempt, told each attempt's outcome, and written at the
 * end, one statement per endpoint whose state changed (none on the healthy path). Claiming a due
 * probe is one more statement, so that exactly one attempt of all workers' gets to post.
 */
export class EndpointBreakers {
  private readonly endpoints = new Map<string, Endpoint>();

  constructor(
    private readonly em: EntityManager,
    private readonly settings: BreakerSettings,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes an endpoint's breaker from a row read with `BREAKER_COLUMNS`. */
  load(platformId: string, url: string, row: Record<string, unknown>): void {
    const key = `${platformId} ${url}`;
    if (this.endpoints.has(key)) return;
    const { state, version } = stateOf(row, this.settings);
    this.endpoints.set(key, { platformId, url, state, version, storedState: state, verdicts: [] });
  }

  /** Whether an attempt may post (`probe`: it is the endpoint's probe), or the outcome of one held back. */
  async admit(platformId: string, url: string): Promise<{ post: true; probe: boolean } | { post: false; outcome: PausedOutcome }> {
    const endpoint = this.endpoint(platformId, url);
    const nowMs = this.clock();
    const admitted = admission(endpoint.state, nowMs);
    if (admitted === 'POST') return { post: true, probe: false };
    if (admitted === 'PROBE') {
      const claimed = claimProbe(endpoint.state, nowMs, this.settings);
      if (await this.compareAndSet(endpoint, claimed)) {
        endpoint.storedState = claimed;
        endpoint.state = claimed;
        return { post: true, probe: true };
      }
      // Another worker claimed it (or wrote the breaker) first: its probe is under way, this attempt waits as the
      // others do. Nothing of that is this call's to write.
      endpoint.state = claimed;
      endpoint.storedState = claimed;
    }
    return { post: false, outcome: pausedOutcome(endpoint.state, nowMs) };
  }

  /** After a posted attempt. */
  record(platformId: string, url: string, outcome: DeliveryOutcome, probe: boolean): void {
    const endpoint = this.endpoint(platformId, url);
    const entry = { verdict: verdictOf(outcome), probe, nowMs: this.clock() };
    endpoint.verdicts.push(entry);
    endpoint.state = afterAttempt(endpoint.state, entry.verdict, entry, this.settings);
  }

  /** Writes every changed breaker: one statement each, another round only when another worker wrote it meanwhile. */
  async save(): Promise<void> {
    for (const endpoint of this.endpoints.values()) {
      for (let round = 0; round < WRITE_ROUNDS && !sameState(endpoint.state, endpoint.storedState); round++) {
        if (await this.compareAndSet(endpoint, endpoint.state)) break;
        await this.reread(endpoint);
      }
    }
  }

  private endpoint(platformId: string, url: string): Endpoint {
    const endpoint = this.endpoints.get(`${platformId} ${url}`);
    if (!endpoint) throw new Error(`the breaker of ${platformId}'s endpoint was not read with its events`);
    return endpoint;
  }

  /** Writes `next` if the row is still as this call read it; true when written. */
  private async compareAndSet(endpoint: Endpoint, next: BreakerState): Promise<boolean> {
    const connection = this.em.getConnection();
    const pausedUntil = next.pausedUntilMs === null ? null : new Date(next.pausedUntilMs);
    const written =
      endpoint.version === null
        ? await connection.execute<{ version: number }[]>(
            `insert into webhook_endpoint_breakers (platform_id, endpoint_key, endpoint, failures, paused_until, pause_seconds, version, updated_at)
             values (?, md5(?), ?, ?, ?, ?, 1, now()) on conflict (platform_id, endpoint_key) do nothing returning version`,
            [endpoint.platformId, endpoint.url, endpoint.url, next.failures, pausedUntil, next.pauseSeconds],
          )
        : await connection.execute<{ version: number }[]>(
            `update webhook_endpoint_breakers set failures = ?, paused_until = ?, pause_seconds = ?, version = version + 1, updated_at = now()
             where platform_id = ? and endpoint_key = md5(?) and version = ? returning version`,
            [next.failures, pausedUntil, next.pauseSeconds, endpoint.platformId, endpoint.url, endpoint.version],
          );
    if (written.length === 0) return false;
    endpoint.version = Number(written[0]!.version);
    endpoint.storedState = next;
    return true;
  }

  /** Another worker wrote the breaker: this call's verdicts are applied again to what it wrote. */
  private async reread(endpoint: Endpoint): Promise<void> {
    const [row] = await this.em
      .getConnection()
      .execute<Record<string, unknown>[]>(`select ${breakerColumns('')} from webhook_endpoint_breakers where platform_id = ? and endpoint_key = md5(?)`, [
        endpoint.platformId,
        endpoint.url,
      ]);
    const { state, version } = stateOf(row ?? {}, this.settings);
    endpoint.version = version;
    endpoint.storedState = state;
    endpoint.state = endpoint.verdicts.reduce((s, entry) => afterAttempt(s, entry.verdict, entry, this.settings), state);
  }
}
