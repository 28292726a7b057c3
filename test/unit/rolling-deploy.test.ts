import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendServers, rollApis, rollWorkers, UnversionedCluster, type WorkerFleet } from '../../src/dev/rolling-deploy';

// The steps of npm run deploy:apis and deploy:workers (src/dev/rolling-deploy.ts) against a stand-in HAProxy runtime
// API (a Unix socket answering `show stat` and `set server` as HAProxy 2.6 does) and stand-in replicas: the order of
// the steps is what keeps every request served.

const HEADER = '# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status';
type State = { status: string; scur: number };

/** A stand-in for HAProxy's runtime API: its servers' states, and every command it was sent. */
function fakeHaproxy(socket: string, servers: Record<string, State>): { server: Server; commands: string[] } {
  const commands: string[] = [];
  const server = createServer((conn) => {
    conn.on('data', (chunk: Buffer) => {
      const command = chunk.toString().trim();
      let answer = '';
      if (command === 'show stat') {
        const row = (name: string, s: State) => `api_replicas,${name},0,0,${s.scur},1,,10,0,0,,0,,0,0,0,0,${s.status}`;
        answer = [
          HEADER,
          'api,FRONTEND,,,1,2,2000,10,0,0,0,0,0,,,,,OPEN',
          ...Object.entries(servers).map(([n, s]) => row(n, s)),
          'api_replicas,BACKEND,0,0,1,2,,10,0,0,0,,,0,0,0,0,UP',
          '',
        ].join('\n');
      } else {
        commands.push(command);
        const m = /^set server api_replicas\/(\w+) state (drain|ready)$/.exec(command);
        const target = m ? servers[m[1]!] : undefined;
        if (target) {
          target.status = m![2] === 'drain' ? 'DRAIN' : 'UP';
          // The requests a drained server still holds end a little later.
          if (m![2] === 'drain') setTimeout(() => (target.scur = 0), 150);
        } else answer = 'Unknown command.\n';
      }
      conn.end(answer);
    });
  });
  server.listen(socket);
  return { server, commands };
}

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rolling-deploy-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("show stat is read by its header: each API server's status, requests held and queued", async () => {
  const socket = join(dir, 'haproxy.sock');
  const { server } = fakeHaproxy(socket, { api1: { status: 'UP', scur: 3 }, api2: { status: 'DOWN 1/2', scur: 0 } });
  try {
    expect(await backendServers(socket)).toEqual([
      { server: 'api1', status: 'UP', current: 3, queued: 0 },
      { server: 'api2', status: 'DOWN 1/2', current: 0, queued: 0 },
    ]);
  } finally {
    server.close();
  }
});

test('each API is drained, stopped only once it holds no request, put back once ready, and the next one waits until it is UP', async () => {
  const socket = join(dir, 'haproxy.sock');
  const servers: Record<string, State> = { api1: { status: 'UP', scur: 2 }, api2: { status: 'UP', scur: 1 } };
  const { server, commands } = fakeHaproxy(socket, servers);
  const events: string[] = [];
  try {
    const figures = await rollApis(
      {
        haproxySocket: socket,
        replicas: ['api-1', 'api-2'].map((name) => ({ name, server: name.replace('-', ''), readyUrl: 'http://127.0.0.1:1/ready' })),
        restart: async (name) => {
          const s = servers[name.replace('-', '')]!;
          events.push(`restart ${name} (status ${s.status}, holding ${s.scur})`);
          s.scur = 0;
          s.status = 'DOWN';
        },
      },
      (line) => events.push(line),
      5_000,
      // Its own /ready: passes once restarted.
      async () => true,
    );
    expect(commands).toEqual([
      'set server api_replicas/api1 state drain',
      'set server api_replicas/api1 state ready',
      'set server api_replicas/api2 state drain',
      'set server api_replicas/api2 state ready',
    ]);
    expect(events.filter((e) => e.startsWith('restart'))).toEqual(['restart api-1 (status DRAIN, holding 0)', 'restart api-2 (status DRAIN, holding 0)']);
    expect(figures.replicas.map((r) => r.drainMs >= 100)).toEqual([true, true]);
  } finally {
    server.close();
  }
});

test('deploy:workers on a cluster started unversioned says what to do first and touches nothing', async () => {
  const asked: string[] = [];
  const fleet: WorkerFleet = {
    temporalAddress: '127.0.0.1:1',
    namespace: 'default',
    temporalCli: '/nonexistent/temporal',
    workers: async () => [
      { name: 'worker-1', running: true },
      { name: 'worker-2', running: true },
    ],
    startWorkers: async (buildId) => (asked.push(`start ${buildId}`), []),
    retire: async (name) => void asked.push(`retire ${name}`),
  };
  const failure = await rollWorkers(fleet, { buildId: 'B', buildDir: '/builds/B' }, () => undefined).catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(UnversionedCluster);
  expect((failure as Error).message).toContain('WORKER_DEPLOYMENT_NAME=payments-service WORKER_BUILD_ID=<running build> npm run start:cluster');
  expect(asked).toEqual([]);
});
