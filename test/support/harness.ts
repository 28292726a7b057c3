import type { MikroORM } from '@mikro-orm/postgresql';
import { Client, Connection, type ClientInterceptors } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, type Worker, type WorkerOptions } from '@temporalio/worker';
import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import request, { type Response, type Test } from 'supertest';
import { createApp } from '../../src/api/app';
import type { ApiDeps } from '../../src/api/context';
import { basePath } from '../../src/config';
import type { Environment } from '../../src/contexts/platforms/entities/ApiToken';
import { openOrm } from '../../src/db/orm';
import { temporalConnectionOptions } from '../../src/temporal/client-connection';
import { parseMasterKey } from '../../src/security/secrets';
import { umaDomainOf } from '../../src/contexts/platforms/domain/uma-domains';
import { createToken, type NewPlatform } from '../../src/contexts/platforms/services/platforms';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { createWorker } from '../../worker/worker';
import { conformanceRecord } from './conformance-record';
import { createWorkerMetrics, type WorkerMetrics } from '../../activities/metrics';
import { createApiMetrics, type ApiMetrics } from '../../src/api/metrics';
import { loopbackWebhookSender, WebhookReceiver } from './receiver';
import type { ExecutionGate } from '../../src/domain/execution-gate-contract';
import type { BreakerSettings } from '../../src/contexts/webhooks/domain/delivery-breaker';

let runtimeQuiet = false;

export interface HarnessOptions {
  /**
   * Traces the API, its workflow client and the worker; the workflow code is then bundled with
   * the tracing workflow modules. The caller passes the parts, so that other tests never load
   * OpenTelemetry.
   */
  tracing?: { requestSpans: RequestHandler; clientInterceptors: ClientInterceptors; worker: Pick<WorkerOptions, 'interceptors' | 'sinks'> };
  /** The execution gates the worker's activities run; the registered ones unless a test brings its own. */
  executionGates?: readonly ExecutionGate[];
  /** The webhook endpoints' breaker settings (threshold, pauses); the real ones unless a test shortens them. */
  webhookBreaker?: BreakerSettings;
}

/**
 * Everything an API test needs, all real: the test database, the run's Temporal dev server, a
 * worker on a task queue of this file's own, the Express app and a webhook receiver. The API and
 * the worker count into metrics of their own (`apiMetrics`, `workerMetrics`).
 */
export class Harness {
  orm!: MikroORM;
  temporal!: Client;
  worker!: Worker;
  app!: ReturnType<typeof createApp>;
  deps!: ApiDeps;
  receiver!: WebhookReceiver;
  masterKey!: Buffer;
  readonly apiMetrics: ApiMetrics = createApiMetrics();
  readonly workerMetrics: WorkerMetrics = createWorkerMetrics();
  /** The statements and transactions of the one ORM the API and the worker share in tests. */
  readonly dbMetrics = this.apiMetrics.db;
  readonly taskQueue = `test-${randomUUID()}`;
  private connection?: Connection;
  private nativeConnection?: NativeConnection;
  private running?: Promise<void>;

  static async start(options: HarnessOptions = {}): Promise<Harness> {
    const h = new Harness();
    await h.init(options);
    return h;
  }

  private async init(options: HarnessOptions): Promise<void> {
    if (!runtimeQuiet) {
      Runtime.install({
        logger: {
          log: () => undefined,
          trace: () => undefined,
          debug: () => undefined,
          info: () => undefined,
          warn: () => undefined,
          error: (m, meta) => console.error(m, meta),
        },
      });
      runtimeQuiet = true;
    }
    const address = process.env.TEMPORAL_TEST_ADDRESS!;
    this.masterKey = parseMasterKey(process.env.MASTER_KEY!);
    this.orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 10, dbMetrics: this.dbMetrics });
    // The service's own client (api/main.ts): its channel options and retry guard. The SDK's 10 s
    // connect deadline is short for a shared server on a saturated machine (issue 37): a minute here.
    this.connection = await Connection.connect({ ...temporalConnectionOptions(address), connectTimeout: '60s' });
    const { tracing } = options;
    this.temporal = new Client({ connection: this.connection, namespace: 'default', ...(tracing ? { interceptors: tracing.clientInterceptors } : {}) });
    this.nativeConnection = await NativeConnection.connect({ address });
    this.receiver = await new WebhookReceiver().start();
    this.worker = await createWorker({
      connection: this.nativeConnection,
      namespace: 'default',
      taskQueue: this.taskQueue,
      deps: {
        orm: this.orm,
        masterKey: this.masterKey,
        webhookSender: loopbackWebhookSender,
        webhookTimeoutMs: 3_000,
        metrics: this.workerMetrics,
        ...(options.executionGates ? { executionGates: options.executionGates } : {}),
        ...(options.webhookBreaker ? { webhookBreaker: options.webhookBreaker } : {}),
      },
      workflowBundle: tracing
        ? await bundleWorkflowCode({
            workflowsPath: require.resolve('../../workflows'),
            workflowInterceptorModules: tracing.worker.interceptors?.workflowModules ?? [],
            logger: silentLogger,
          })
        : { code: readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8') },
      ...(tracing ? { tracing: tracing.worker } : {}),
    });
    this.running = this.worker.run();
    this.deps = {
      orm: this.orm,
      temporal: this.temporal,
      config: { masterKey: this.masterKey, apiPrefix: '', publicBaseUrl: 'http://127.0.0.1/2025-10-13', webhookAllowLoopback: true },
      taskQueue: this.taskQueue,
      metrics: this.apiMetrics,
      ...(tracing ? { requestSpans: tracing.requestSpans } : {}),
    };
    this.app = createApp(this.deps);
  }

  /** A fresh platform with a token; every test works in its own platform, so tests never collide. */
  async platform(options: Partial<NewPlatform> & { environment?: Environment } = {}) {
    const em = this.orm.em.fork();
    // Regulated by default: individuals are approved at creation and hold accounts at once.
    const platform = await createPlatform(
      em,
      {
        name: `test-${randomUUID().slice(0, 8)}`,
        currencies: ['USD', 'EUR'],
        webhookEndpoint: this.receiver.url,
        isRegulatedFinancialInstitution: true,
        ...options,
      },
      { masterKey: this.masterKey },
    );
    const token = await createToken(em, this.masterKey, platform.id, options.environment ?? 'SANDBOX');
    const auth = `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}`;
    // Customers' UMA addresses must be on the platform's domain: `uma('bob')` is `$bob@<that domain>`.
    const umaDomain = umaDomainOf(platform);
    return { platform, token, auth, api: new Api(this.app, auth), umaDomain, uma: (user: string) => `$${user}@${umaDomain}` };
  }

  async stop(): Promise<void> {
    this.worker.shutdown();
    await this.running;
    await this.nativeConnection?.close();
    await this.connection?.close();
    await this.receiver.stop();
    await this.orm.close();
    conformanceRecord(BASE).flush(relative(resolve(__dirname, '../..'), expect.getState().testPath ?? 'unknown'));
  }
}

const none = () => undefined;
const silentLogger = { log: none, trace: none, debug: none, info: none, warn: none, error: none };

export const BASE = basePath('');

/**
 * supertest with the base path and credentials filled in. Every response it receives is checked
 * against the public reference (conformance-record.ts): a difference the allow-list does not
 * declare fails the request, after the test's own expectations.
 */
export class Api {
  constructor(
    readonly app: ReturnType<typeof createApp>,
    readonly auth: string,
  ) {}
  get(path: string) {
    return checked(request(this.app).get(`${BASE}${path}`).set('Authorization', this.auth), 'GET', path);
  }
  post(path: string, body?: unknown, headers: Record<string, string> = {}) {
    const r = request(this.app).post(`${BASE}${path}`).set('Authorization', this.auth).set(headers);
    return checked(body === undefined ? r : r.send(body as object), 'POST', path);
  }
  /**
   * A POST as a partner's client sends it: with an Idempotency-Key, and sent again with the same key
   * after its Retry-After when answered 503 (the engine not reached within the request's deadline, as on a
   * saturated machine with many requests at once; issue 37), which the service answers by doing the work once.
   */
  async postRetryingUnavailable(path: string, body?: unknown, attempts = 5) {
    const headers = { 'Idempotency-Key': randomUUID() };
    for (let attempt = 1; ; attempt++) {
      const res = await this.post(path, body, headers);
      if (res.status !== 503 || attempt === attempts) return res;
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers['retry-after'] ?? 1) * 1000));
    }
  }
  patch(path: string, body: unknown, headers: Record<string, string> = {}) {
    return checked(
      request(this.app)
        .patch(`${BASE}${path}`)
        .set('Authorization', this.auth)
        .set(headers)
        .send(body as object),
      'PATCH',
      path,
    );
  }
  delete(path: string, headers: Record<string, string> = {}) {
    return checked(request(this.app).delete(`${BASE}${path}`).set('Authorization', this.auth).set(headers), 'DELETE', path);
  }
}

/** Adds the reference check as the last expectation, when the request is sent (end is what then() calls). */
function checked(test: Test, method: string, path: string): Test {
  const end = test.end.bind(test);
  test.end = (callback) => {
    test.expect((res: Response) =>
      conformanceRecord(BASE).observe({
        method,
        path: `${BASE}${path}`,
        status: res.status,
        contentType: res.headers['content-type'] as string | undefined,
        body: res.body,
      }),
    );
    return end(callback);
  };
  return test;
}
