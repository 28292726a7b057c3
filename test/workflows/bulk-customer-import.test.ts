import type { MikroORM } from '@mikro-orm/postgresql';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../activities';
import { BulkImportJob, Customer } from '../../src/contexts/customers/entities';
import { createBulkImportJob, importBulkRows } from '../../src/contexts/customers/services/bulk-import';
import { umaDomainOf } from '../../src/contexts/platforms/domain/uma-domains';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { openOrm } from '../../src/db/orm';
import { derivedId } from '../../src/domain/ids';
import { parseMasterKey } from '../../src/security/secrets';
import { BusinessStatusKey, PlatformIdKey } from '../../src/temporal/search-attributes';
import { startBulkCustomerImport } from '../../src/contexts/customers/starters/bulk-customer-import';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import { loopbackWebhookSender, WebhookReceiver } from '../support/receiver';

// The import with the real activities, database and webhook receiver on the run's Temporal dev
// server, and a worker that dies in the middle of a batch: the rows it committed stay, a second
// worker finishes the job, and no customer is created twice.

let orm: MikroORM;
let connection: Connection;
let native: NativeConnection;
let client: Client;
let receiver: WebhookReceiver;
const masterKey = () => parseMasterKey(process.env.MASTER_KEY!);

beforeAll(async () => {
  quietTemporalRuntime();
  orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 5 });
  connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  native = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  client = new Client({ connection, namespace: 'default' });
  receiver = await new WebhookReceiver().start();
}, 60_000);

afterAll(async () => {
  await receiver?.stop();
  await native?.close();
  await connection?.close();
  await orm?.close();
});

const HEADER = ['umaAddress', 'platformCustomerId', 'customerType', 'fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'];
const row = (n: number, domain: string, birthDate = '1985-06-01') => [
  `$r${n}@${domain}`,
  `r-${n}`,
  'INDIVIDUAL',
  `Row Person ${n}`,
  birthDate,
  `${n} Main St`,
  'Austin',
  'TX',
  '78701',
  'US',
];
const BAD_ROWS = new Set([50, 170]);

async function job(rows: number) {
  const em = orm.em.fork();
  const platform = await createPlatform(em, {
    name: `bulk-${randomUUID().slice(0, 8)}`,
    currencies: ['USD'],
    webhookEndpoint: receiver.url,
    isRegulatedFinancialInstitution: true,
  });
  const cells = Array.from({ length: rows }, (_, i) => row(i + 1, umaDomainOf(platform), BAD_ROWS.has(i + 1) ? '1985-13-01' : undefined));
  const { job: created } = await createBulkImportJob(em, { platformId: platform.id, environment: 'SANDBOX', csv: { header: HEADER, rows: cells } });
  return { platformId: platform.id, jobId: created.id };
}

const activityDeps = () => ({ orm, masterKey: masterKey(), webhookSender: loopbackWebhookSender, webhookTimeoutMs: 2_000 });

test('a worker that dies mid-batch: its committed rows stay, a new worker finishes, every good row is created exactly once', async () => {
  const { platformId, jobId } = await job(250);
  const taskQueue = `bulk-${randomUUID()}`;

  // Worker 1 commits the first half of the second batch, then goes away before answering.
  let died!: () => void;
  const dying = new Promise<void>((resolve) => (died = resolve));
  const real = createActivities(activityDeps());
  const first = await bundledWorker(
    native,
    {
      ...real,
      async importBulkCustomerRows(input: { jobId: string; fromRow: number; toRow: number }) {
        if (input.fromRow !== 101) return real.importBulkCustomerRows!(input as never);
        await importBulkRows(orm.em.fork(), { jobId: input.jobId, fromRow: 101, toRow: 150, masterKey: masterKey() });
        died();
        throw new Error('worker lost mid-batch');
      },
    },
    { taskQueue },
  );
  const firstRunning = first.worker.run();
  await startBulkCustomerImport(client, { jobId, platformId }, { taskQueue });
  await dying;
  first.worker.shutdown();
  await firstRunning;
  const midway = await orm.em.fork().count(Customer, { platformId });
  expect(midway).toBe(149); // rows 1–150 but row 50

  // Worker 2, the real activities: retries the batch and finishes.
  const second: { worker: Worker } = await bundledWorker(native, createActivities(activityDeps()), { taskQueue });
  const secondRunning = second.worker.run();
  try {
    const result = await client.workflow.getHandle(jobId).result();
    expect(result).toEqual({ jobId, status: 'COMPLETED' });
  } finally {
    second.worker.shutdown();
    await secondRunning;
  }

  const customers = await orm.em.fork().find(Customer, { platformId });
  expect(customers).toHaveLength(248);
  expect(new Set(customers.map((c) => c.platformCustomerId)).size).toBe(248);
  const expectedIds = Array.from({ length: 250 }, (_, i) => i + 1)
    .filter((n) => !BAD_ROWS.has(n))
    .map((n) => derivedId('Customer', jobId, String(n)));
  expect(customers.map((c) => c.id).sort()).toEqual(expectedIds.sort());

  const stored = await orm.em.fork().findOneOrFail(BulkImportJob, { id: jobId });
  expect(stored.status).toBe('COMPLETED');
  const events = await orm.em.fork().find(WebhookEvent, { platformId });
  expect(events.filter((e) => e.type === 'CUSTOMER.KYC_APPROVED')).toHaveLength(248);
  expect(events.filter((e) => e.type === 'BULK_UPLOAD.COMPLETED')).toHaveLength(1);
  await receiver.waitFor((hooks) => hooks.some((h) => h.body.type === 'BULK_UPLOAD.COMPLETED' && (h.body.data as { id: string }).id === jobId));
  const hook = receiver.received.find((h) => h.body.type === 'BULK_UPLOAD.COMPLETED' && (h.body.data as { id: string }).id === jobId)!;
  expect(hook.body.data).toMatchObject({ status: 'COMPLETED', progress: { total: 250, processed: 250, successful: 248, failed: 2 } });
  expect((hook.body.data as { errors: { correlationId: string }[] }).errors.map((e) => e.correlationId)).toEqual(['row_50', 'row_170']);

  // The batch activity run again over the whole file (a retry after the last answer was lost): nothing new.
  expect(await importBulkRows(orm.em.fork(), { jobId, fromRow: 1, toRow: 250, masterKey: masterKey() })).toEqual({ events: [] });
  expect(await orm.em.fork().count(Customer, { platformId })).toBe(248);

  // Support finds the job by its platform and outcome.
  const description = await client.workflow.getHandle(jobId).describe();
  expect(description.typedSearchAttributes.get(PlatformIdKey)).toBe(platformId);
  expect(description.typedSearchAttributes.get(BusinessStatusKey)).toBe('COMPLETED');
}, 120_000);
