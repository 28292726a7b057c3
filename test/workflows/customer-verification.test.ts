import type { MikroORM } from '@mikro-orm/postgresql';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { loopbackWebhookSender } from '../support/receiver';
import { Customer, Verification } from '../../src/contexts/customers/entities';
import { InternalAccount } from '../../src/contexts/ledger/entities';
import { openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';
import { uploadDocument } from '../../src/contexts/customers/services/documents';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { verificationIdFor } from '../../src/contexts/customers/services/verifications';
import type { customerVerification } from '../../workflows/customers/customer-verification';
import { submitVerification, verificationStatusQuery } from '../../workflows/customers/definitions';
import { FILES, individualFields, insertCustomer } from '../support/onboarding-fixtures';
import { WebhookReceiver } from '../support/receiver';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import { timeSkippingEnvironment } from '../support/time-skipping';

// Verifications that resolve later wait on a durable timer; the time-skipping test server runs
// them in moments, with the real activities, database and webhook receiver.

let env: TestWorkflowEnvironment;
let orm: MikroORM;
let receiver: WebhookReceiver;
let worker: Worker;
let running: Promise<void>;
const masterKey = () => parseMasterKey(process.env.MASTER_KEY!);
let taskQueue: string;

beforeAll(async () => {
  quietTemporalRuntime();
  orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 5 });
  receiver = await new WebhookReceiver().start();
}, 120_000);

// A test server of its own for each test: after a workflow with updates and abandoned children
// has completed, the Java test server stops skipping time for the workflows that follow.
beforeEach(async () => {
  env = await timeSkippingEnvironment();
  ({ worker, taskQueue } = await bundledWorker(
    env.nativeConnection,
    createActivities({ orm, masterKey: masterKey(), webhookSender: loopbackWebhookSender, webhookTimeoutMs: 2_000 }),
  ));
  running = worker.run();
}, 120_000);

afterEach(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

afterAll(async () => {
  await receiver?.stop();
  await orm?.close();
});

const consent = {
  agreementType: 'SVC_END_USER_TERMS',
  termsVersion: '2025-10-13',
  acceptedAt: '2026-01-01T00:00:00.000Z',
  ipAddress: '127.0.0.1',
  acceptanceMethod: 'CHECKBOX' as const,
};

/** An unregulated platform's individual whose packet lacks only the identity document. */
async function customer(fullName = 'Ada Lovelace') {
  const platform = await createPlatform(orm.em.fork(), {
    name: 'wf-verification',
    webhookEndpoint: receiver.url,
    isRegulatedFinancialInstitution: false,
    currencies: ['USD'],
  });
  const c = await insertCustomer(orm, masterKey(), platform.id, { ...individualFields(fullName), agreementConsents: [consent] });
  return { platform, customer: c, verificationId: verificationIdFor(c.id) };
}

async function addPassport(platformId: string, customerId: string) {
  await uploadDocument(
    orm.em.fork(),
    platformId,
    customerId,
    { documentType: 'PASSPORT', country: 'US' },
    { bytes: FILES.pdf, mimeType: 'application/pdf', fileName: 'p.pdf' },
  );
}

function start(platformId: string, customerId: string, verificationId: string, resolutionDelaySeconds = 3600) {
  return env.client.workflow.start<typeof customerVerification>('customerVerification', {
    workflowId: verificationId,
    taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [{ verificationId, platformId, customerId, environment: 'SANDBOX', resolutionDelaySeconds }],
  });
}

test('IN_PROGRESS, then APPROVED after an hour-long durable timer: accounts provisioned, customer webhook delivered', async () => {
  const { platform, customer: c, verificationId } = await customer();
  await addPassport(platform.id, c.id);
  const handle = await start(platform.id, c.id, verificationId);
  const submitted = await handle.executeUpdate(submitVerification);
  expect(submitted).toMatchObject({ id: verificationId, customerId: c.id, verificationStatus: 'IN_PROGRESS', errors: [] });
  expect((await orm.em.fork().findOneOrFail(Customer, { id: c.id })).kycStatus).toBe('PENDING');
  expect(await orm.em.fork().count(InternalAccount, { customerId: c.id })).toBe(0);

  const result = await handle.result();
  expect(result).toEqual({ verificationId, verificationStatus: 'APPROVED', submissions: 1 });
  expect((await orm.em.fork().findOneOrFail(Customer, { id: c.id })).kycStatus).toBe('APPROVED');
  expect((await orm.em.fork().findOneOrFail(Verification, { id: verificationId })).verificationStatus).toBe('APPROVED');
  expect((await orm.em.fork().find(InternalAccount, { customerId: c.id })).map((a) => a.currency)).toEqual(['USD']);

  await receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CUSTOMER.KYC_APPROVED' && x.body.data.id === c.id));
  const approved = receiver.ofType('CUSTOMER.KYC_APPROVED').find((x) => x.body.data.id === c.id)!;
  expect(approved.body.data).toMatchObject({ id: c.id, kycStatus: 'APPROVED' });
  await receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'VERIFICATION.APPROVED' && x.body.data.id === verificationId));
  expect(receiver.ofType('CUSTOMER.KYC_PENDING').filter((x) => x.body.data.id === c.id)).toHaveLength(1);

  // The timer really was an hour of workflow time.
  const history = await handle.fetchHistory();
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers).toContain(3600);
});

test('RESOLVE_ERRORS, then a corrected resubmission to the same run, then REJECTED (fullName 002)', async () => {
  const { platform, customer: c, verificationId } = await customer('Ada 002');
  const handle = await start(platform.id, c.id, verificationId);
  const first = await handle.executeUpdate(submitVerification);
  expect(first).toMatchObject({
    verificationStatus: 'RESOLVE_ERRORS',
    errors: [{ resourceId: c.id, type: 'MISSING_IDENTITY_DOCUMENT', acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] }],
  });
  expect(await handle.query(verificationStatusQuery)).toBe('RESOLVE_ERRORS');

  await addPassport(platform.id, c.id);
  const again = await start(platform.id, c.id, verificationId);
  expect(again.firstExecutionRunId).toBe(handle.firstExecutionRunId);
  const second = await again.executeUpdate(submitVerification);
  expect(second).toMatchObject({ id: verificationId, verificationStatus: 'IN_PROGRESS', errors: [] });

  expect(await handle.result()).toEqual({ verificationId, verificationStatus: 'REJECTED', submissions: 2 });
  expect((await orm.em.fork().findOneOrFail(Customer, { id: c.id })).kycStatus).toBe('REJECTED');
  expect(await orm.em.fork().count(InternalAccount, { customerId: c.id })).toBe(0);
  await receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CUSTOMER.KYC_REJECTED' && x.body.data.id === c.id));

  // Decided: the update is refused.
  await expect(handle.executeUpdate(submitVerification)).rejects.toThrow();
});

test('a verification left with errors ends after 30 idle days; the next submission starts a new run with the same id', async () => {
  const { platform, customer: c, verificationId } = await customer();
  const handle = await start(platform.id, c.id, verificationId);
  expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('RESOLVE_ERRORS');
  expect(await handle.result()).toEqual({ verificationId, verificationStatus: 'RESOLVE_ERRORS', submissions: 1 });

  await addPassport(platform.id, c.id);
  const next = await start(platform.id, c.id, verificationId, 10);
  expect(next.firstExecutionRunId).not.toBe(handle.firstExecutionRunId);
  expect(await next.executeUpdate(submitVerification)).toMatchObject({ id: verificationId, verificationStatus: 'IN_PROGRESS' });
  expect((await next.result()).verificationStatus).toBe('APPROVED');
  expect((await orm.em.fork().findOneOrFail(Verification, { id: verificationId })).submissions).toBe(2);
});
