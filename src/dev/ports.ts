import { connect, createServer, type Server } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `count` different free ports: each is held open until all are chosen (ports asked for one after
 * another can come back the same, as the crash campaign's metrics listeners once did).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}

/**
 * `count` different free ports below 32768, held open until all are chosen. The Temporal server stores its
 * services' membership ports in a smallint column: one from the ephemeral range (32768 and up on Linux) fails
 * its start with "out of range for type smallint".
 */
export async function freeLowPorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  for (let attempts = 0; servers.length < count; attempts++) {
    if (attempts > count * 50) throw new Error(`no ${count} free ports below 32768`);
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = await new Promise<Server | undefined>((resolve) => {
      const candidate = createServer();
      candidate.once('error', () => resolve(undefined));
      candidate.listen(port, '127.0.0.1', () => resolve(candidate));
    });
    if (server) servers.push(server);
  }
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}

export function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} not open after ${timeoutMs} ms`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

/** Whether something accepts TCP connections on `host`:`port` right now. */
export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(2_000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}
