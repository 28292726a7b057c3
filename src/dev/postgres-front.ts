import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { renderTemplate } from './cluster-configs';

/**
 * The PostgreSQL front: HAProxy in TCP mode on one address that every client uses (the APIs, the workers, the
 * Temporal server), sending connections to the primary only, and the failover that moves it to the standby
 * (`npm run failover`, docs/production.md "Failing over to a standby"). The primary and its standby are
 * project-owned clusters of bin/lib/postgres.sh (`.data/<name>`; `postgres.sh standby` makes the standby).
 */

export interface PostgresNode {
  /** The cluster's name in bin/lib/postgres.sh (`.data/<name>`). */
  name: string;
  port: number;
}

/** What the front sends to, kept beside its configuration (`postgres-front.json`) for the failover command. */
export interface PostgresFront {
  /** Where clients connect (127.0.0.1). */
  port: number;
  /** HAProxy's runtime API (stats socket, admin level, mode 600). */
  socket: string;
  /** The writable node: the only one the front sends to. */
  primary: PostgresNode;
  /** Its streaming standby, listed in the front but disabled until a failover; none after one. */
  standby?: PostgresNode;
  /** Nodes a failover fenced: listed, disabled, never sent to again. */
  fenced?: PostgresNode[];
}

const BACKEND = 'postgres_primary';

export const frontConfigFile = (dir: string) => join(dir, 'postgres-front.cfg');
export const frontStateFile = (dir: string) => join(dir, 'postgres-front.json');

/** Writes the front's HAProxy configuration and its state file in `dir`; run `haproxy -db -f <dir>/postgres-front.cfg`. */
export function writePostgresFront(root: string, dir: string, front: PostgresFront): void {
  const server = (node: PostgresNode, enabled: boolean) => `  server ${node.name} 127.0.0.1:${node.port} check${enabled ? '' : ' disabled'}`;
  const servers = [server(front.primary, true), ...(front.standby ? [server(front.standby, false)] : []), ...(front.fenced ?? []).map((n) => server(n, false))];
  renderTemplate(root, 'postgres-front.template.cfg', frontConfigFile(dir), { PORT: front.port, SOCKET: front.socket, SERVERS: servers.join('\n') });
  writeFileSync(frontStateFile(dir), `${JSON.stringify(front, null, 2)}\n`, { mode: 0o600 });
}

export function readPostgresFront(dir: string): PostgresFront {
  return JSON.parse(readFileSync(frontStateFile(dir), 'utf8')) as PostgresFront;
}

/** One command on HAProxy's runtime API; resolves with its answer. */
export function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((done, fail) => {
    let answer = '';
    const conn = connect(socket, () => conn.end(`${command}\n`));
    conn.setTimeout(5_000, () => conn.destroy(new Error(`HAProxy's runtime API (${socket}) did not answer "${command}" within 5 s`)));
    conn.on('data', (d: Buffer) => (answer += d.toString()));
    conn.on('error', fail);
    conn.on('close', () => done(answer.trim()));
  });
}

export interface FailoverStep {
  step: string;
  ms: number;
  detail: string;
}

/**
 * Moves the front from the primary to its standby, in the order that never lets two nodes take writes:
 * cut (the front sends nothing more to the old primary and ends its sessions), fence (the old primary is stopped
 * and can only come back read-only), promote (the standby becomes the primary), point (the front sends to it and
 * its files say so), check (a connection through the front lands on a writable node).
 */
export async function failOver(root: string, dir: string, say: (line: string) => void = () => undefined): Promise<FailoverStep[]> {
  const front = readPostgresFront(dir);
  const { primary: old, standby } = front;
  if (!standby) throw new Error(`the front in ${dir} has no standby to fail over to (${old.name} is alone): make one with bin/lib/postgres.sh standby`);
  const steps: FailoverStep[] = [];
  const run = async (step: string, work: () => Promise<string> | string) => {
    const started = performance.now();
    const detail = await work();
    const ms = Math.round(performance.now() - started);
    steps.push({ step, ms, detail });
    say(`${step}: ${ms} ms (${detail})`);
  };
  await run('cut', async () => {
    await runtime(front.socket, `set server ${BACKEND}/${old.name} state maint`);
    await runtime(front.socket, `shutdown sessions server ${BACKEND}/${old.name}`);
    return `the front sends nothing more to ${old.name} and ended its sessions`;
  });
  await run('fence', () => postgresSh(root, 'fence', old.name));
  await run('promote', () => postgresSh(root, 'promote', standby.name));
  await run('point', async () => {
    await runtime(front.socket, `set server ${BACKEND}/${standby.name} state ready`);
    writePostgresFront(root, dir, { port: front.port, socket: front.socket, primary: standby, fenced: [...(front.fenced ?? []), old] });
    return `the front sends to ${standby.name} (127.0.0.1:${standby.port})`;
  });
  await run('check', async () => {
    const url = new URL(postgresSh(root, 'url', standby.name, String(front.port), 'postgres'));
    const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
      if (rows[0]?.recovery !== false) throw new Error(`a connection through the front (127.0.0.1:${front.port}) landed on a read-only node`);
    } finally {
      await client.end();
    }
    return `127.0.0.1:${front.port} takes writes`;
  });
  return steps;
}

async function runtime(socket: string, command: string): Promise<void> {
  const answer = await haproxyCommand(socket, command);
  // Commands that succeed answer nothing, or a line that is not an error.
  if (/no such|unknown|require|not found|denied/i.test(answer)) throw new Error(`HAProxy refused "${command}": ${answer}`);
}

/** bin/lib/postgres.sh <args>: its stdout, or an error with its stderr. */
function postgresSh(root: string, ...args: string[]): string {
  const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bin/lib/postgres.sh ${args[0]} ${args[1]} failed: ${result.stderr.trim()}`);
  const said = result.stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^\[setup\] /, ''));
  return args[0] === 'url' ? result.stdout.trim() : (said.at(-1) ?? 'done');
}
