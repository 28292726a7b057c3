import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createActivities } from '../../activities';
import { httpWebhookSender } from '../../activities/webhooks/webhook-sender';
import { parseMasterKey } from '../../src/security/secrets';
import { createPlatform } from '../../src/contexts/platforms/services/platforms';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import type { webhookDelivery } from '../../workflows/webhooks/webhook-delivery';
import type { customerVerification } from '../../workflows/customers/customer-verification';
import { submitVerification } from '../../workflows/definitions';
import { uploadDocument } from '../../src/contexts/customers/services/documents';
import { verificationIdFor } from '../../src/contexts/customers/services/verifications';
import { FILES, individualFields, insertCustomer } from '../support/onboarding-fixtures';
import { bundledWorker } from '../support/bundled-worker';
import { Harness } from '../support/harness';
import { timeSkippingEnvironment } from '../support/time-skipping';

// Records the histories the replay tests replay. Runs only on request:
//   RECORD_HISTORIES=1 npm test -- test/histories
// Files are test/histories/<workflowType>/<version>-<scenario>.json. An existing file is never
// overwritten: after a versioned workflow change (patched()), raise HISTORY_VERSION so the new
// runs are recorded beside the old ones, and commit both (README: "Changing a workflow").
const record = process.env.RECORD_HISTORIES === '1' ? describe : describe.skip;
const dir = __dirname;

/** The workflow code version the recorded histories belong to. */
const HISTORY_VERSION = 'v1';

async function save(workflowType: string, scenario: string, history: Parameters<typeof historyToJSON>[0]) {
  const file = join(dir, workflowType, `${HISTORY_VERSION}-${scenario}.json`);
  if (existsSync(file)) {
    console.warn(`${file} exists and is kept; raise HISTORY_VERSION to record the current code's histories`);
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${historyToJSON(history)}\n`);
}

record('record workflow histories', () => {
  test('incomingPayment and a first-try webhookDelivery, on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api } = await h.platform();
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history' });
      const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
      await api.post(`/sandbox/internal-accounts/${accounts.body.data[0].id}/fund`, { amount: 2500 }).expect(200);
      const tx = (await api.get('/transactions')).body.data[0];
      const payment = h.temporal.workflow.getHandle(tx.id);
      const { webhookEventIds } = (await payment.result()) as { webhookEventIds: string[] };
      await save('incomingPayment', 'sandbox-funding', await payment.fetchHistory());
      const hook = h.temporal.workflow.getHandle(webhookEventIds[0]!);
      await hook.result();
      await save('webhookDelivery', 'first-try', await hook.fetchHistory());
    } finally {
      await h.stop();
    }
  });

  test('webhookDelivery with retries, on the time-skipping server', async () => {
    const env = await timeSkippingEnvironment();
    const h = await Harness.start();
    try {
      let calls = 0;
      h.receiver.respond = () => (++calls <= 2 ? 500 : 200);
      const em = h.orm.em.fork();
      const platform = await createPlatform(em, { name: 'history', webhookEndpoint: h.receiver.url });
      const event = await recordWebhookEvent(em, { platformId: platform.id, environment: 'SANDBOX', type: 'TEST', data: {} });
      const { worker, taskQueue } = await bundledWorker(env.nativeConnection, createActivities({ orm: h.orm, masterKey: parseMasterKey(process.env.MASTER_KEY!), webhookSender: httpWebhookSender }));
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start<typeof webhookDelivery>('webhookDelivery', { workflowId: event.id, taskQueue, args: [{ eventId: event.id }] });
        await handle.result();
        await save('webhookDelivery', 'retries', await handle.fetchHistory());
      });
    } finally {
      await h.stop();
      await env.teardown();
    }
  });

  test('customerVerification: RESOLVE_ERRORS, a corrected resubmission, IN_PROGRESS, APPROVED after the timer, on the time-skipping server', async () => {
    const h = await Harness.start();
    const env = await timeSkippingEnvironment();
    try {
      const masterKey = parseMasterKey(process.env.MASTER_KEY!);
      const em = h.orm.em.fork();
      const platform = await createPlatform(em, { name: 'history', webhookEndpoint: h.receiver.url, isRegulatedFinancialInstitution: false, currencies: ['USD'] });
      const customer = await insertCustomer(h.orm, masterKey, platform.id, individualFields('Ada Lovelace'));
      const verificationId = verificationIdFor(customer.id);
      const { worker, taskQueue } = await bundledWorker(env.nativeConnection, createActivities({ orm: h.orm, masterKey, webhookSender: httpWebhookSender }));
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start<typeof customerVerification>('customerVerification', {
          workflowId: verificationId,
          taskQueue,
          args: [{ verificationId, platformId: platform.id, customerId: customer.id, environment: 'SANDBOX', resolutionDelaySeconds: 10 }],
        });
        expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('RESOLVE_ERRORS');
        await uploadDocument(h.orm.em.fork(), platform.id, customer.id, { documentType: 'PASSPORT', country: 'US' }, { bytes: FILES.pdf, mimeType: 'application/pdf', fileName: 'p.pdf' });
        expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('IN_PROGRESS');
        expect((await handle.result()).verificationStatus).toBe('APPROVED');
        await save('customerVerification', 'resolve-errors-then-approved', await handle.fetchHistory());
      });
    } finally {
      await h.stop();
      await env.teardown();
    }
  });
});
