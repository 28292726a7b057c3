import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_DASHBOARD_DIST } from '../../src/contexts/dashboard/api/pages';
import { workerTaskQueues } from '../../src/temporal/task-queue-settings';
import { TASK_QUEUES } from '../../src/temporal/task-queues';

// docker-compose.yml and the Dockerfile cannot run here (no Docker engine), so they are held to the tested cluster
// path (`npm run start:cluster`) by reading them: the same engine pins, the compiled build, every task queue polled,
// only settings the service reads, HAProxy's checks, the same Temporal configuration and schema steps.

const root = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
  volumes?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appServices = Object.entries(services).filter(([, s]) => s.build !== undefined);
const workerServices = appServices.filter(([, s]) => s.command?.join(' ') === 'node dist/worker/main.js');
const dockerfile = read('Dockerfile');
/** A file's instructions, without its comments. */
const withoutComments = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');

/** A shell variable assignment of bin/lib/temporal-server.sh, the engine's pins. */
function pin(name: string): string {
  const found = new RegExp(`^${name}=(\\S+)`, 'm').exec(read('bin/lib/temporal-server.sh'));
  if (!found) throw new Error(`bin/lib/temporal-server.sh has no ${name}`);
  return found[1]!;
}

function sourceText(dir: string): string {
  let text = '';
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (path === 'src/dev') continue; // the dev runners set variables for the service; they do not read its settings
    if (statSync(join(root, path)).isDirectory()) text += sourceText(path);
    else if (entry.endsWith('.ts')) text += read(path);
  }
  return text;
}

/** The lines of one HAProxy section (`defaults`, `backend api_replicas`), trimmed, without `server` lines. */
function haproxySection(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) throw new Error(`no section "${header}"`);
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s/.test(line)) break;
    if (line.trim() && !/^(server|server-template)\s|^@@/.test(line.trim())) body.push(line.trim());
  }
  return body;
}

test('the Temporal images are the versions the cluster builds and the tests run (no auto-setup)', () => {
  expect(services.temporal?.image).toBe(`temporalio/server:${pin('SERVER_VERSION')}`);
  expect(services['temporal-schema']?.image).toBe(`temporalio/admin-tools:${pin('SERVER_VERSION')}`);
  expect(services['temporal-ui']?.image).toBe(`temporalio/ui:${pin('UI_VERSION')}`);
  expect(read('docker-compose.yml')).not.toMatch(/auto-setup/);
});

test('the image is built in stages and runs the compiled build as an unprivileged user on the pinned Node', () => {
  const node = /"node": ">=(\d+) <\d+"/.exec(read('package.json'))![1];
  const stages = dockerfile.split('\n').filter((line) => line.startsWith('FROM '));
  expect(stages.length).toBeGreaterThanOrEqual(2);
  for (const stage of stages) expect(stage).toMatch(new RegExp(`^FROM node:${node}-slim\\b`));
  expect(dockerfile).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
  expect(dockerfile).toMatch(/^RUN npm run build$/m);
  expect(dockerfile).toMatch(/^RUN npm ci --no-audit --no-fund --omit=dev$/m);
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  expect(runtime).toMatch(/^COPY --from=\w+ \/app\/dist \.\/dist$/m);
  expect(runtime).toMatch(/^USER node$/m);
  expect(runtime).toMatch(/^CMD \["node", "dist\/src\/api\/main\.js"\]$/m);
  expect(withoutComments(dockerfile)).not.toMatch(/tsx/);
});

test('the image builds the dashboard and puts it where the compiled API serves it from', () => {
  const build = dockerfile.slice(0, dockerfile.indexOf('\nFROM ', dockerfile.indexOf('AS build')));
  expect(build).toMatch(/^RUN npm ci --prefix dashboard --no-audit --no-fund$/m);
  expect(build).toMatch(/^RUN npm run build --prefix dashboard && node dashboard\/scripts\/first-load-size\.mjs dashboard\/dist$/m);
  for (const part of ['index.html', 'vite.config.ts', 'tsconfig.json', 'src', 'scripts', 'package-lock.json'])
    expect([part, new RegExp(`^COPY .*dashboard/${part.replace('.', '\\.')}\\b`, 'm').test(build)]).toEqual([part, true]);
  // The compiled pages.js sits at dist/src/contexts/dashboard/api, so its default dist is under dist/ in the image.
  const served = join('dist', relative(root, DEFAULT_DASHBOARD_DIST));
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  expect(runtime).toContain(`COPY --from=build /app/dashboard/dist ./${served}\n`);
  // The host's own install and build stay out of the context (the image makes its own).
  const ignored = read('.dockerignore').split('\n');
  expect(ignored).toEqual(expect.arrayContaining(['dashboard/node_modules', 'dashboard/dist']));
});

test('every process of the service runs a compiled entry point that exists in the source', () => {
  expect(appServices.map(([name]) => name).sort()).toEqual(['api', 'migrate', 'temporal-namespace', 'worker-other', 'worker-payments', 'worker-webhooks']);
  for (const [name, service] of appServices) {
    const command = service.command ?? ['node', 'dist/src/api/main.js'];
    expect([name, command[0]]).toEqual([name, 'node']);
    const source = command[1]!.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    expect([name, existsSync(join(root, source))]).toEqual([name, true]);
  }
  expect(withoutComments(read('docker-compose.yml'))).not.toMatch(/tsx/);
});

test('every task queue is polled by some worker service, each with replicas', () => {
  const polled = new Set<string>();
  for (const [name, service] of workerServices) {
    const queues = service.environment?.WORKER_TASK_QUEUES;
    expect([name, queues]).toEqual([name, expect.any(String)]);
    for (const queue of workerTaskQueues({ WORKER_TASK_QUEUES: queues })) polled.add(queue);
    expect(service.deploy?.replicas).toBeGreaterThanOrEqual(1);
  }
  expect([...polled].sort()).toEqual([...TASK_QUEUES].sort());
  expect(services['worker-payments']?.deploy?.replicas).toBeGreaterThanOrEqual(2);
  expect(services.api?.deploy?.replicas).toBe(2);
});

test('every variable set on a process of the service is one it reads', () => {
  const code = sourceText('src') + sourceText('worker') + sourceText('activities');
  const readByLibraries = new Set(['NODE_ENV']);
  for (const [name, service] of appServices) {
    for (const variable of Object.keys(service.environment ?? {})) {
      if (readByLibraries.has(variable)) continue;
      expect([name, variable, new RegExp(`\\b${variable}\\b`).test(code)]).toEqual([name, variable, true]);
    }
  }
  // The Temporal server reads its settings through its configuration's env calls.
  const serverConfig = read('deploy/docker/temporal.yaml');
  for (const variable of Object.keys(services.temporal?.environment ?? {}))
    expect([variable, serverConfig.includes(`env "${variable}"`)]).toEqual([variable, true]);
});

test("HAProxy checks the API replicas as the cluster's does, and the API's own health check asks the same", () => {
  const tested = read('deploy/haproxy.template.cfg');
  const composed = read('deploy/docker/haproxy.cfg');
  expect(haproxySection(composed, 'defaults')).toEqual(haproxySection(tested, 'defaults'));
  expect(haproxySection(composed, 'backend api_replicas')).toEqual(haproxySection(tested, 'backend api_replicas'));
  expect(haproxySection(tested, 'backend api_replicas')).toContain('option httpchk GET /ready');
  expect(composed).toMatch(/^\s+server-template api \d+ api:3000 check resolvers docker/m);
  expect(services.api?.environment?.HOST).toBe('0.0.0.0');
  expect(services.api?.healthcheck?.test.join(' ')).toContain("fetch('http://127.0.0.1:3000/ready')");
  expect(services.haproxy?.volumes).toContain('./deploy/docker/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
});

test("the Temporal server's configuration is the cluster's, with container addresses", () => {
  const fill = (text: string) => text.replace(/@@[A-Z_]+@@/g, '1').replace(/\{\{[^}]*\}\}/g, 'x');
  const tested = parse(fill(read('deploy/temporal/server.yaml.template'))) as Record<string, Record<string, unknown>>;
  const composed = parse(fill(read('deploy/docker/temporal.yaml'))) as Record<string, Record<string, unknown>>;
  const stores = (config: Record<string, Record<string, unknown>>) => {
    const persistence = structuredClone(config.persistence) as { datastores: Record<string, { sql: Record<string, unknown> }> };
    for (const store of Object.values(persistence.datastores)) for (const key of ['connectAddr', 'user', 'password']) delete store.sql[key];
    return persistence;
  };
  expect(stores(composed)).toEqual(stores(tested));
  expect(composed.log).toEqual(tested.log);
  expect(Object.keys(composed.services!)).toEqual(Object.keys(tested.services!));
  expect(composed.clusterMetadata).toMatchObject({ ...tested.clusterMetadata, clusterInformation: expect.anything() });
  expect(composed.dcRedirectionPolicy).toEqual(tested.dcRedirectionPolicy);
  expect((composed.dynamicConfigClient as { pollInterval: string }).pollInterval).toBe((tested.dynamicConfigClient as { pollInterval: string }).pollInterval);
  expect(read('deploy/docker/temporal.yaml').split('\n')[0]).toBe('# enable-template');
  // The same dynamic configuration file, where the configuration says it is; the server started as the cluster starts it.
  const dynamicConfig = (composed.dynamicConfigClient as { filepath: string }).filepath;
  expect(services.temporal?.volumes).toEqual(
    expect.arrayContaining(['./deploy/docker/temporal.yaml:/etc/temporal/config/docker.yaml:ro', `./deploy/temporal/dynamic-config.yaml:${dynamicConfig}:ro`]),
  );
  expect(services.temporal?.command?.join(' ')).toContain('temporal-server --root /etc/temporal --config config --env docker --allow-no-auth start');
});

test("the schemas are applied with bin/lib/temporal-schema.sh's steps, and the service starts after its setup jobs", () => {
  const script = read('bin/lib/temporal-schema.sh');
  const job = services['temporal-schema']!.command!.join('\n');
  for (const [, database, schema] of script.matchAll(/^migrate (\w+) (\w+)$/gm)) expect(job).toContain(`'${database} ${schema}'`);
  expect(script).toMatch(/create-database/);
  expect(script).toContain('"setup-schema -v 0.0" "update-schema -d $schema"');
  expect(job).toMatch(/create-database\n.*setup-schema -v 0\.0\n.*update-schema -d "\/etc\/temporal\/schema\/postgresql\/v12\/\$\$2\/versioned"/);
  expect(services.temporal?.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
  // The namespace and the search attributes (ensureNamespace, as start:cluster), and the migrations, before any process.
  expect(services['temporal-namespace']?.command).toEqual(['node', 'dist/src/cli/temporal-namespace.js']);
  expect(services.migrate?.command).toEqual(['node', 'dist/src/cli/migrate.js']);
  for (const [name, service] of [...workerServices, ['api', services.api!] as const]) {
    expect([name, service.depends_on]).toEqual([
      name,
      { migrate: { condition: 'service_completed_successfully' }, 'temporal-namespace': { condition: 'service_completed_successfully' } },
    ]);
  }
});
