import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../../src/dev/ports';

/** A toxic as toxiproxy's API takes it: `stream` is the direction (upstream: client → server). */
export interface Toxic {
  name: string;
  type: 'latency' | 'reset_peer' | 'timeout' | 'bandwidth' | 'slow_close' | 'slicer' | 'limit_data';
  stream: 'upstream' | 'downstream';
  toxicity?: number;
  attributes: Record<string, number>;
}

/**
 * toxiproxy-server (bin/lib/toxiproxy.sh builds it; bin/chaos passes its folder in TOXIPROXY_DIR) on a free
 * port of 127.0.0.1, started and stopped with the campaign, and a small client of its HTTP API. Each proxy
 * is one link of one service process to PostgreSQL or Temporal (named `<process>-<service>`), listening on
 * a free port of its own.
 */
export class Toxiproxy {
  /** Every link made so far: proxy name → the process and service it stands between. */
  readonly links = new Map<string, { process: string; service: 'postgres' | 'temporal' }>();

  private constructor(
    private readonly proc: ChildProcess,
    private readonly apiUrl: string,
  ) {}

  static async start(logDir: string): Promise<Toxiproxy> {
    const dir = process.env.TOXIPROXY_DIR;
    if (!dir) throw new Error('TOXIPROXY_DIR is not set (bin/chaos sets it from bin/lib/toxiproxy.sh)');
    mkdirSync(logDir, { recursive: true });
    const port = await freePort();
    const proc = spawn(join(dir, 'toxiproxy-server'), ['-host', '127.0.0.1', '-port', String(port)], {
      // Its default logs every connection's every step: under the campaign's load, gigabytes.
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(join(logDir, 'toxiproxy.log'));
    proc.stdout?.pipe(log, { end: false });
    proc.stderr?.pipe(log, { end: false });
    const toxiproxy = new Toxiproxy(proc, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`toxiproxy-server exited (${proc.exitCode}); see ${join(logDir, 'toxiproxy.log')}`);
      try {
        await toxiproxy.request('GET', '/version');
        return toxiproxy;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`toxiproxy-server did not answer within 15 s`, { cause: err });
        await new Promise((done) => setTimeout(done, 100));
      }
    }
  }

  /** The stacks' `upstream` option: a proxy in front of 127.0.0.1:<port>; answers the port to use instead. */
  readonly upstream = async (process: string, service: 'postgres' | 'temporal', port: number): Promise<number> => {
    const name = `${process}-${service}`;
    const listen = await freePort();
    await this.request('POST', '/proxies', { name, listen: `127.0.0.1:${listen}`, upstream: `127.0.0.1:${port}`, enabled: true });
    this.links.set(name, { process, service });
    return listen;
  };

  async addToxic(proxy: string, toxic: Toxic): Promise<void> {
    await this.request('POST', `/proxies/${proxy}/toxics`, { toxicity: 1, ...toxic });
  }

  async removeToxic(proxy: string, name: string): Promise<void> {
    await this.request('DELETE', `/proxies/${proxy}/toxics/${name}`);
  }

  /** A disabled proxy closes its connections and refuses new ones (it listens again on the same port when enabled). */
  async setEnabled(proxy: string, enabled: boolean): Promise<void> {
    await this.request('POST', `/proxies/${proxy}`, { enabled });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((done) => this.proc.once('exit', done));
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private async request(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.apiUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}
