import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createActivities } from '../../activities';
import { loopbackWebhookSender } from '../support/receiver';
import { parseMasterKey } from '../../src/security/secrets';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import type { webhookDelivery } from '../../workflows/webhooks/webhook-delivery';
import type { customerVerification } from '../../workflows/customers/customer-verification';
import { submitVerification } from '../../workflows/customers/definitions';
import { uploadDocument } from '../../src/contexts/customers/services/documents';
import { verificationIdFor } from '../../src/contexts/customers/services/verifications';
import { FILES, individualFields, insertCustomer } from '../support/onboarding-fixtures';
import { Customer } from '../../src/contexts/customers/entities';
import { InternalAccount } from '../../src/contexts/ledger/entities';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { newId } from '../../src/domain/ids';
import { runIncomingPayment } from '../../src/contexts/payments/starters/incoming-payment';
import { bundledWorker } from '../support/bundled-worker';
import { processingCard, startCard } from '../support/card-fixtures';
import { cardNetworkEventUpdate, changeCardUpdate } from '../../workflows/cards/definitions';
import { Api, BASE, Harness } from '../support/harness';
import { createApp } from '../../src/api/app';
import { GATES_WITH_HELD, HELD_GATE } from '../support/held-gate';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { agentPolicyGate } from '../../src/contexts/agents/gates/agent-policy';
import { AGENT_POLICY_GATE } from '../../src/contexts/agents/domain/agent-approvals';
import request from 'supertest';
import { decideHold, executeThroughPaymentWorkflow } from '../../src/contexts/payments/starters/payment';
import { strandedQuotes } from '../../src/contexts/payments/services/stranded-quotes';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { Quote } from '../../src/contexts/payments/entities';
import { createBulkImportJob } from '../../src/contexts/customers/services/bulk-import';
import { startBulkCustomerImport } from '../../src/contexts/customers/starters/bulk-customer-import';
import { timeSkippingEnvironment } from '../support/time-skipping';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toChecksumAddress } from '../../src/domain/identifiers/evm-address';
import { ethereumMessageHash } from '../../src/contexts/external-accounts/domain/ownership-signatures';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { seedCustomer } from '../support/onboarding-seed';
import { SANDBOX_CODE } from '../support/sca/sca-client';
import { openScaSession } from '../../src/contexts/sca/services/sessions';

// Records the histories the replay tests replay. Runs only on request:
//   RECORD_HISTORIES=1 npm test -- test/histories
// Files are test/histories/<workflowType>/<version>-<scenario>.json. An existing file is never
// overwritten: after a versioned workflow change (patched()), raise HISTORY_VERSION so the new
// runs are recorded beside the old ones, and commit both (docs/architecture.md, "Changing a workflow").
const record = process.env.RECORD_HISTORIES === '1' ? describe : describe.skip;
const dir = __dirname;

/**
 * The current code version of each workflow type: raise it with every versioned change
 * (patched()), so that the new code's histories are recorded beside the older ones.
 */
const HISTORY_VERSION: Record<string, string> = {
  incomingPayment: 'v4',
  webhookDelivery: 'v2',
  customerVerification: 'v1',
  externalAccountVerification: 'v1',
  quote: 'v2',
  outgoingPayment: 'v2',
  payment: 'v6',
  cardLifecycle: 'v1',
  bulkCustomerImport: 'v1',
  invitationLifecycle: 'v1',
  stablecoinIssuance: 'v1',
  stablecoinOperation: 'v1',
  scaChallenge: 'v1',
};

async function save(workflowType: string, scenario: string, history: Parameters<typeof historyToJSON>[0]) {
  const file = join(dir, workflowType, `${HISTORY_VERSION[workflowType]}-${scenario}.json`);
  if (existsSync(file)) {
    console.warn(`${file} exists and is kept; raise HISTORY_VERSION to record the current code's histories`);
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${historyToJSON(history)}\n`);
}

record('record workflow histories', () => {
  test('incomingPayment: delivered from the payment itself, handed over after a refused first attempt, refused by policy; on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api } = await h.platform();
      const fundNewCustomer = async (name: string) => {
        const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: name });
        const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
        return {
          customerId: customer.body.id as string,
          fund: () => api.post(`/sandbox/internal-accounts/${accounts.body.data[0].id}/fund`, { amount: 2500 }),
        };
      };
      const latestPayment = async () => h.temporal.workflow.getHandle((await api.get('/transactions')).body.data[0].id);

      await (await fundNewCustomer('history-1')).fund().expect(200);
      const delivered = await latestPayment();
      await delivered.result();
      await save('incomingPayment', 'sandbox-funding', await delivered.fetchHistory());

      // The receiver refuses every first attempt: both events are handed to webhookDelivery
      // workflows, which wait the first back-off interval (30 s) and deliver.
      h.receiver.respond = (_hook, attempt) => (attempt === 1 ? 500 : 200);
      await (await fundNewCustomer('history-2')).fund().expect(200);
      const handedOver = await latestPayment();
      const { webhookEventIds } = (await handedOver.result()) as { webhookEventIds: string[] };
      await save('incomingPayment', 'first-attempt-refused', await handedOver.fetchHistory());
      const retry = h.temporal.workflow.getHandle(webhookEventIds[0]!);
      await retry.result();
      await save('webhookDelivery', 'handed-over', await retry.fetchHistory());
      h.receiver.respond = () => 200;

      // Deleted after the API's check (simulated by starting the payment directly): FAILED.
      const refused = await fundNewCustomer('history-3');
      await h.orm.em.fork().nativeUpdate(Customer, { id: refused.customerId }, { isDeleted: true });
      const accountId = (await h.orm.em.fork().findOneOrFail(InternalAccount, { customerId: refused.customerId, currency: 'USD' })).id;
      const transactionId = newId('Transaction');
      await expect(
        runIncomingPayment(
          h.temporal,
          {
            transactionId,
            platformId: (await h.orm.em.fork().findOneOrFail(Customer, { id: refused.customerId })).platformId,
            environment: 'SANDBOX',
            customerId: refused.customerId,
            internalAccountId: accountId,
            currency: 'USD',
            amount: '100',
            source: { sourceType: 'SANDBOX_FUNDING' },
          },
          { taskQueue: h.taskQueue },
        ),
      ).rejects.toMatchObject({ code: 'CUSTOMER_DELETED' });
      const refusedHandle = h.temporal.workflow.getHandle(transactionId);
      await refusedHandle.result();
      await save('incomingPayment', 'refused-by-policy', await refusedHandle.fetchHistory());
    } finally {
      await h.stop();
    }
  }, 120_000);

  test('incomingPayment: a UMA payment its platform approves (in-line, 202 then approve / reject / nothing, webhook error); on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api, auth, uma } = await h.platform();
      const receiver = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-uma', umaAddress: uma('history.uma') });
      const receive = (via: Api = api) =>
        via.post('/sandbox/uma/receive', {
          senderUmaAddress: '$alice@sender.example.com',
          receiverUmaAddress: receiver.body.umaAddress,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 1_000,
        });
      const finished = async (transactionId: string) => {
        const handle = h.temporal.workflow.getHandle(transactionId);
        await handle.result();
        return handle.fetchHistory();
      };
      const answering = (status: number) => {
        h.receiver.respond = (hook) => (hook.body.type === 'INCOMING_PAYMENT.PENDING' ? status : 200);
      };

      answering(200);
      const inline = await receive().expect(200);
      await save('incomingPayment', 'uma-approved-in-line', await finished(inline.body.id));

      answering(202);
      const approved = await receive().expect(200);
      await api.post(`/transactions/${approved.body.id}/approve`, {}).expect(200);
      await save('incomingPayment', 'uma-deferred-then-approved', await finished(approved.body.id));

      const rejected = await receive().expect(200);
      await api.post(`/transactions/${rejected.body.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' }).expect(200);
      await save('incomingPayment', 'uma-deferred-then-rejected', await finished(rejected.body.id));

      const shortWindow = new Api(createApp({ ...h.deps, incomingPaymentApprovalWindowMs: 1_000 }), auth);
      const timedOut = await receive(shortWindow).expect(200);
      await save('incomingPayment', 'uma-deferred-then-timed-out', await finished(timedOut.body.id));

      answering(500);
      const webhookError = await receive().expect(200);
      await save('incomingPayment', 'uma-webhook-error', await finished(webhookError.body.id));
      h.receiver.respond = () => 200;
    } finally {
      await h.stop();
    }
  }, 120_000);

  test('webhookDelivery with retries, on the time-skipping server', async () => {
    const env = await timeSkippingEnvironment();
    const h = await Harness.start();
    try {
      let calls = 0;
      h.receiver.respond = () => (++calls <= 2 ? 500 : 200);
      const em = h.orm.em.fork();
      const platform = await createPlatform(em, { name: 'history', webhookEndpoint: h.receiver.url });
      const event = await recordWebhookEvent(em, { platformId: platform.id, environment: 'SANDBOX', type: 'TEST', data: {} });
      const { worker, taskQueue } = await bundledWorker(
        env.nativeConnection,
        createActivities({ orm: h.orm, masterKey: parseMasterKey(process.env.MASTER_KEY!), webhookSender: loopbackWebhookSender }),
      );
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start<typeof webhookDelivery>('webhookDelivery', {
          workflowId: event.id,
          taskQueue,
          args: [{ eventId: event.id }],
        });
        await handle.result();
        await save('webhookDelivery', 'retries', await handle.fetchHistory());
      });
    } finally {
      await h.stop();
      await env.teardown();
    }
  });

  test('webhookDelivery held back by its endpoint breaker, then delivered by the probe, on the time-skipping server', async () => {
    // The harness first: it installs the quiet runtime, which must precede the test server's when this test runs alone.
    const h = await Harness.start();
    const env = await timeSkippingEnvironment();
    try {
      let calls = 0;
      h.receiver.respond = () => (++calls <= 1 ? 500 : 200);
      const em = h.orm.em.fork();
      const platform = await createPlatform(em, { name: 'history', webhookEndpoint: h.receiver.url });
      const event = await recordWebhookEvent(em, { platformId: platform.id, environment: 'SANDBOX', type: 'INCOMING_PAYMENT.COMPLETED', data: {} });
      // The first failure opens the breaker for a second of the worker's clock: the attempts in it (30 s apart on
      // the skipped clock) are PAUSED outcomes, until one probes and delivers.
      const { worker, taskQueue } = await bundledWorker(
        env.nativeConnection,
        createActivities({
          orm: h.orm,
          masterKey: parseMasterKey(process.env.MASTER_KEY!),
          webhookSender: loopbackWebhookSender,
          webhookBreaker: { threshold: 1, firstPauseSeconds: 1, maxPauseSeconds: 2, probeWindowSeconds: 60 },
        }),
      );
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start<typeof webhookDelivery>('webhookDelivery', {
          workflowId: event.id,
          taskQueue,
          args: [{ eventId: event.id }],
        });
        const result = await handle.result();
        expect(result).toMatchObject({ delivered: true, attempts: 2 });
        await save('webhookDelivery', 'paused', await handle.fetchHistory());
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
      const platform = await createPlatform(em, {
        name: 'history',
        webhookEndpoint: h.receiver.url,
        isRegulatedFinancialInstitution: false,
        currencies: ['USD'],
      });
      const customer = await insertCustomer(h.orm, masterKey, platform.id, individualFields('Ada Lovelace'));
      const verificationId = verificationIdFor(customer.id);
      const { worker, taskQueue } = await bundledWorker(
        env.nativeConnection,
        createActivities({ orm: h.orm, masterKey, webhookSender: loopbackWebhookSender }),
      );
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start<typeof customerVerification>('customerVerification', {
          workflowId: verificationId,
          taskQueue,
          args: [{ verificationId, platformId: platform.id, customerId: customer.id, environment: 'SANDBOX', resolutionDelaySeconds: 10 }],
        });
        expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('RESOLVE_ERRORS');
        await uploadDocument(
          h.orm.em.fork(),
          platform.id,
          customer.id,
          { documentType: 'PASSPORT', country: 'US' },
          { bytes: FILES.pdf, mimeType: 'application/pdf', fileName: 'p.pdf' },
        );
        expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('IN_PROGRESS');
        expect((await handle.result()).verificationStatus).toBe('APPROVED');
        await save('customerVerification', 'resolve-errors-then-approved', await handle.fetchHistory());
      });
    } finally {
      await h.stop();
      await env.teardown();
    }
  });
  test('externalAccountVerification: a PENDING name check and a US validation window; a wallet challenge answered by signature; on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api } = await h.platform({ region: 'EU', counterpartyInformationRequired: true });
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-accounts', fullName: 'Jane Doe' });
      const customerId = customer.body.id as string;
      const finished = async (id: string) => {
        const handle = h.temporal.workflow.getHandle(id);
        await handle.result();
        return handle.fetchHistory();
      };

      const pending = await api.post('/customers/external-accounts', { customerId, ...usdAccount('12345104') }).expect(201);
      await save('externalAccountVerification', 'name-check-and-us-validation', await finished(pending.body.id));

      const secret = secp256k1.utils.randomSecretKey();
      const address = toChecksumAddress(`0x${Buffer.from(keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12)).toString('hex')}`);
      const wallet = await api
        .post('/customers/external-accounts', {
          customerId,
          currency: 'USDC',
          ownershipType: 'FIRST_PARTY',
          accountInfo: { accountType: 'ETHEREUM_WALLET', address },
        })
        .expect(201);
      const challenge = await api.post(`/customers/external-accounts/${wallet.body.id}/challenge`, { method: 'WALLET_SIGNATURE' }).expect(201);
      const sig = secp256k1.sign(ethereumMessageHash(challenge.body.messageToSign), secret, { prehash: false, format: 'recovered' });
      const signature = `0x${Buffer.concat([Buffer.from(sig.subarray(1)), Buffer.from([sig[0]! + 27])]).toString('hex')}`;
      await api.post(`/customers/external-accounts/${wallet.body.id}/verify`, { signature }).expect(200);
      await save('externalAccountVerification', 'wallet-signature', await finished(wallet.body.id));
    } finally {
      await h.stop();
    }
  }, 120_000);
  // quote and outgoingPayment: their histories (v1, v2) were recorded while quotes started them;
  // the current code starts a payment workflow instead, so no new ones can be recorded.
  test('payment: payouts completed, failed, cancelled while waiting; pulls collected, refused, returned; a quote expired; a run that only answers; a real-time-funded quote; held payments approved, rejected, expired; on the dev server', async () => {
    const h = await Harness.start({ executionGates: GATES_WITH_HELD });
    try {
      const { api, platform } = await h.platform();
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-payments', fullName: 'Jane Doe' });
      const customerId = customer.body.id as string;
      const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
      const usd = accounts.body.data[0].id as string;
      await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000 }).expect(200);
      const run = (transactionId: string) => h.temporal.workflow.getHandle(transactionId);
      const quote = async (
        destination: string,
        extra: Record<string, unknown> = {},
        source: Record<string, unknown> = { sourceType: 'ACCOUNT', accountId: usd },
      ) =>
        (
          await api
            .post('/quotes', {
              source,
              destination: { destinationType: 'ACCOUNT', accountId: destination },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 10_000,
              ...extra,
            })
            .expect(201)
        ).body as { id: string; transactionId: string };
      const bankEnding = async (iban: string) =>
        (await api.post('/customers/external-accounts', { customerId, ...eurAccount(iban) }).expect(201)).body.id as string;
      const executed = async (destination: string, extra: Record<string, unknown> = {}) => {
        const q = await quote(destination, extra);
        await api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': `history-${q.id}` }).expect(200);
        return q;
      };
      const finished = async (transactionId: string) => {
        await run(transactionId).result();
        return run(transactionId).fetchHistory();
      };

      const plain = await bankEnding('DE89370400440532013000');
      const completed = await executed(plain);
      await save('payment', 'payout-completed', await finished(completed.transactionId));
      // Executed again after its run ended by another request, straight through the starter (the
      // route answers it from the quote without asking Temporal): a new run that only answers.
      const again = await executeThroughPaymentWorkflow(
        h.temporal,
        { quoteId: completed.id, transactionId: completed.transactionId, platformId: platform.id, customerId, environment: 'SANDBOX', lifetimeSeconds: 60 },
        { requestKey: `history-other-${completed.id}`, taskQueue: h.taskQueue },
      );
      expect(again.repeat).toBe(true);
      await save('payment', 'payout-executed-again-after-its-end', await finished(completed.transactionId));
      await save(
        'payment',
        'payout-delivery-failed-refunded',
        await finished((await executed(await bankEnding(ibanOf('DE', '370400440532013004')))).transactionId),
      );
      // An ACH payout (cancellable) the simulated bank answers after six minutes.
      const ach = (await api.post('/customers/external-accounts', { customerId, ...usdAccount('123456003') }).expect(201)).body.id as string;
      await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: ach }, { bankValidation: 'PASSED' });
      const slow = await executed(ach);
      await api.post(`/transactions/${slow.transactionId}/cancel`, {}).expect(200);
      await save('payment', 'payout-cancelled-while-waiting', await finished(slow.transactionId));

      const pull = async (accountNumber: string) => {
        const bank = await api.post('/customers/external-accounts', { customerId, ...usdAccount(accountNumber) }).expect(201);
        await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: bank.body.id }, { bankValidation: 'PASSED' });
        const q = (
          await api
            .post('/quotes', {
              source: { sourceType: 'ACCOUNT', accountId: bank.body.id },
              destination: { destinationType: 'ACCOUNT', accountId: usd },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 10_000,
            })
            .expect(201)
        ).body;
        await api.post(`/quotes/${q.id}/execute`).expect(200);
        return finished(q.transactionId);
      };
      await save('payment', 'pull-collected', await pull('123456999'));
      await save('payment', 'pull-refused', await pull('123456004'));
      await save('payment', 'pull-returned', await pull('123456009'));

      // A quote whose workflow start was lost, expired by the sweep (no time left).
      const stranded = await quote(plain);
      await run(stranded.transactionId).terminate('history: stranded');
      await h.orm.em.fork().nativeUpdate(Quote, { id: stranded.id }, { expiresAt: new Date(Date.now() - 120_000) });
      await startStrandedOf(h.orm, h.temporal, strandedQuotes, { taskQueue: h.taskQueue });
      await save('payment', 'quote-expired', await finished(stranded.transactionId));

      const realTime = await quote(plain, {}, { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId });
      await api.post('/sandbox/send', { quoteId: realTime.id, currencyCode: 'USD' }).expect(200);
      await save('payment', 'real-time-funded', await finished(realTime.transactionId));

      const decide = (transactionId: string, decision: 'APPROVE' | 'REJECT') =>
        decideHold(h.temporal, transactionId, { gate: HELD_GATE, decision, decisionId: `history-${transactionId}` });
      const approved = await executed(plain, { description: 'hold:3600' });
      await decide(approved.transactionId, 'APPROVE');
      await save('payment', 'held-approved', await finished(approved.transactionId));
      const rejected = await executed(plain, { description: 'hold:3600' });
      await decide(rejected.transactionId, 'REJECT');
      await save('payment', 'held-rejected', await finished(rejected.transactionId));
      const lapsed = await executed(plain, { description: 'hold:2' });
      await save('payment', 'held-expired', await finished(lapsed.transactionId));
    } finally {
      await h.stop();
    }
  }, 300_000);
  // v3: a hold records OUTGOING_PAYMENT.PENDING_AUTHORIZATION and the waiting run delivers it (patch held-announced).
  test('payment: held payments announce their hold, then are approved, rejected or expire; on the dev server', async () => {
    const h = await Harness.start({ executionGates: GATES_WITH_HELD });
    try {
      const { api } = await h.platform();
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-held', fullName: 'Jane Doe' });
      const customerId = customer.body.id as string;
      const usd = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
      await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000 }).expect(200);
      const bank = (await api.post('/customers/external-accounts', { customerId, ...eurAccount('DE89370400440532013000') }).expect(201)).body.id as string;
      const held = async (seconds: number) => {
        const q = (
          await api
            .post('/quotes', {
              source: { sourceType: 'ACCOUNT', accountId: usd },
              destination: { destinationType: 'ACCOUNT', accountId: bank },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 10_000,
              description: `hold:${seconds}`,
            })
            .expect(201)
        ).body as { id: string; transactionId: string };
        await api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': `history-${q.id}` }).expect(200);
        await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.data?.id === q.transactionId && w.body.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION'));
        return q;
      };
      const finished = async (transactionId: string) => {
        await h.temporal.workflow.getHandle(transactionId).result();
        return h.temporal.workflow.getHandle(transactionId).fetchHistory();
      };
      const decide = (transactionId: string, decision: 'APPROVE' | 'REJECT') =>
        decideHold(h.temporal, transactionId, { gate: HELD_GATE, decision, decisionId: `history-${transactionId}` });
      const approved = await held(3600);
      await decide(approved.transactionId, 'APPROVE');
      await save('payment', 'held-approved', await finished(approved.transactionId));
      const rejected = await held(3600);
      await decide(rejected.transactionId, 'REJECT');
      await save('payment', 'held-rejected', await finished(rejected.transactionId));
      await save('payment', 'held-expired', await finished((await held(2)).transactionId));
    } finally {
      await h.stop();
    }
  }, 120_000);
  // v4: no workflow change; the agent-policy gate's holds (the payment left PENDING, the gate's own
  // AGENT_ACTION.* events delivered with the hold and its end): approved, rejected, approved then
  // refused by the policy (FAILED), expired (a 2-second hold here, a day in service).
  test('payment: agent actions held for the platform, then approved, rejected, refused on approval, expired; on the dev server', async () => {
    const h = await Harness.start({
      executionGates: [...EXECUTION_GATES.filter((gate) => gate.name !== AGENT_POLICY_GATE), agentPolicyGate({ holdSeconds: 2 })],
    });
    try {
      const { api } = await h.platform();
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-agent', fullName: 'Jane Doe' });
      const customerId = customer.body.id as string;
      const usd = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
      await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000 }).expect(200);
      const bank = (await api.post('/customers/external-accounts', { customerId, ...eurAccount('DE89370400440532013000') }).expect(201)).body.id as string;
      const created = (
        await api
          .post('/agents', {
            name: 'History bot',
            customerId,
            policy: {
              permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
              defaultExecutionMode: 'APPROVAL_REQUIRED',
              spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
            },
          })
          .expect(201)
      ).body;
      const agentId = created.agent.id as string;
      const token = (
        await request(h.app)
          .post(`${BASE}/agents/device-codes/${encodeURIComponent(created.deviceCode.code)}/redeem`)
          .expect(200)
      ).body.accessToken as string;
      const agent = new Api(h.app, `Bearer ${token}`);
      const held = async () => {
        const q = (
          await agent
            .post('/agents/me/quotes', {
              source: { sourceType: 'ACCOUNT', accountId: usd },
              destination: { destinationType: 'ACCOUNT', accountId: bank },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 10_000,
            })
            .expect(201)
        ).body as { id: string; transactionId: string };
        const action = (await agent.post(`/agents/me/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': `history-${q.id}` }).expect(200)).body as {
          id: string;
        };
        await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.data?.id === action.id && w.body.type === 'AGENT_ACTION.PENDING_APPROVAL'));
        return { ...q, actionId: action.id };
      };
      const finished = async (transactionId: string) => {
        await h.temporal.workflow.getHandle(transactionId).result();
        return h.temporal.workflow.getHandle(transactionId).fetchHistory();
      };
      const approved = await held();
      await api.post(`/agents/${agentId}/actions/${approved.actionId}/approve`).expect(200);
      await save('payment', 'agent-approved', await finished(approved.transactionId));
      const rejected = await held();
      await api.post(`/agents/${agentId}/actions/${rejected.actionId}/reject`, { reason: 'not now' }).expect(200);
      await save('payment', 'agent-rejected', await finished(rejected.transactionId));
      const refused = await held();
      await api.patch(`/agents/${agentId}`, { isPaused: true }).expect(200);
      await api.post(`/agents/${agentId}/actions/${refused.actionId}/approve`).expect(200);
      await save('payment', 'agent-refused-on-approval', await finished(refused.transactionId));
      await api.patch(`/agents/${agentId}`, { isPaused: false }).expect(200);
      await save('payment', 'agent-expired', await finished((await held()).transactionId));
    } finally {
      await h.stop();
    }
  }, 120_000);
  test('cardLifecycle: issued, an authorization partly cleared, frozen, unfrozen, closed, the rest of the hold released at expiry; on the time-skipping server', async () => {
    const h = await Harness.start();
    const env = await timeSkippingEnvironment();
    try {
      const masterKey = parseMasterKey(process.env.MASTER_KEY!);
      const { card } = await processingCard(h.orm, masterKey, { webhookEndpoint: h.receiver.url, funds: 10_000n });
      const { worker, taskQueue } = await bundledWorker(
        env.nativeConnection,
        createActivities({ orm: h.orm, masterKey, webhookSender: loopbackWebhookSender }),
      );
      await worker.runUntil(async () => {
        const handle = await startCard(env.client, taskQueue, card, { issuerResponseSeconds: 2, authorizationWindowSeconds: 3600 });
        await env.sleep(3_000);
        const merchant = { descriptor: 'HISTORY COFFEE' };
        const auth = await handle.executeUpdate(cardNetworkEventUpdate, {
          args: [
            { token: 'history-auth', event: { kind: 'AUTHORIZATION', cardTransactionId: newId('CardTransaction'), amount: '4000', currency: 'USD', merchant } },
          ],
        });
        await handle.executeUpdate(cardNetworkEventUpdate, {
          args: [{ token: 'history-clear', event: { kind: 'CLEARING', cardTransactionId: auth.cardTransactionId!, amount: '1500' } }],
        });
        await handle.executeUpdate(changeCardUpdate, { args: [{ state: 'FROZEN' }] });
        await handle.executeUpdate(changeCardUpdate, { args: [{ state: 'ACTIVE' }] });
        await handle.executeUpdate(changeCardUpdate, { args: [{ state: 'CLOSED' }] });
        expect(await handle.result()).toEqual({ state: 'CLOSED' });
        await save('cardLifecycle', 'issued-authorized-closed-expired', await handle.fetchHistory());
      });
    } finally {
      await env.teardown();
      await h.stop();
    }
  }, 120_000);
  test('bulkCustomerImport: a small file with a bad row, through the API; a 2,050-row file over two runs (continue-as-new); on the dev server', async () => {
    const h = await Harness.start();
    try {
      const p = await h.platform({ currencies: ['USD'] });
      const platformId = p.platform.id;
      const file = [
        'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country',
        `ann@${p.umaDomain},h-1,INDIVIDUAL,Ann History,1980-01-01,1 Main St,Austin,TX,78701,US`,
        `bob@${p.umaDomain},h-2,INDIVIDUAL,Bob History,1980-02-30,1 Main St,Austin,TX,78701,US`,
      ].join('\n');
      const accepted = await p.api.post('/customers/bulk/csv').attach('file', Buffer.from(file), { filename: 'h.csv', contentType: 'text/csv' });
      expect(accepted.status).toBe(202);
      const small = h.temporal.workflow.getHandle(accepted.body.jobId as string);
      await small.result();
      await save('bulkCustomerImport', 'mixed-rows', await small.fetchHistory());

      // Names ending in 003 stay UNVERIFIED: no webhooks per row, so the histories stay small.
      const header = ['umaAddress', 'platformCustomerId', 'customerType', 'fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'];
      const rows = Array.from({ length: 2_050 }, (_, i) => [
        `$big${i}@${p.umaDomain}`,
        `big-${i}`,
        'INDIVIDUAL',
        `Big Person 003`,
        '1980-01-01',
        '1 Main St',
        'Austin',
        'TX',
        '78701',
        'US',
      ]);
      const { job } = await createBulkImportJob(h.orm.em.fork(), { platformId, environment: 'SANDBOX', csv: { header, rows } });
      await startBulkCustomerImport(h.temporal, { jobId: job.id, platformId }, { taskQueue: h.taskQueue });
      const first = h.temporal.workflow.getHandle(job.id);
      const firstExecutionRunId = (await first.describe()).runId;
      expect(await first.result()).toEqual({ jobId: job.id, status: 'COMPLETED' });
      const firstRun = await h.temporal.workflow.getHandle(job.id, firstExecutionRunId, { followRuns: false }).fetchHistory();
      await save('bulkCustomerImport', 'continued-as-new-first-run', firstRun);
      await save('bulkCustomerImport', 'continued-as-new-last-run', await h.temporal.workflow.getHandle(job.id).fetchHistory());
    } finally {
      await h.stop();
    }
  }, 300_000);

  test('invitationLifecycle: claimed (INVITATION.CLAIMED delivered); cancelled; expired on its timer; on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api } = await h.platform();
      await api.patch('/config', { umaDomain: 'history.uma.example.com' }).expect(200);
      const inviterUma = (
        await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'history-inviter', fullName: 'Ivy Inviter' }).expect(201)
      ).body.umaAddress as string;
      const finished = async (code: string) => {
        const handle = h.temporal.workflow.getHandle(code);
        await handle.result();
        return handle.fetchHistory();
      };
      const claimed = await api.post('/invitations', { inviterUma, amountToSend: 1000, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }).expect(201);
      await api.post(`/invitations/${claimed.body.code}/claim`, { inviteeUma: '$invitee@other.example.com' }).expect(200);
      await save('invitationLifecycle', 'claimed', await finished(claimed.body.code));
      const cancelled = await api.post('/invitations', { inviterUma }).expect(201);
      await api.post(`/invitations/${cancelled.body.code}/cancel`).expect(200);
      await save('invitationLifecycle', 'cancelled', await finished(cancelled.body.code));
      const expiring = await api.post('/invitations', { inviterUma, expiresAt: new Date(Date.now() + 2_000).toISOString() }).expect(201);
      await save('invitationLifecycle', 'expired', await finished(expiring.body.code));
    } finally {
      await h.stop();
    }
  }, 120_000);

  test('stablecoinIssuance: provisioned, rejected; stablecoinOperation: wire mint funded and completed, expired, refused by the provider, burn completed; on the dev server', async () => {
    const h = await Harness.start();
    try {
      const { api } = await h.platform();
      const key = () => ({ 'Idempotency-Key': `history-${Math.random()}` });
      const finished = async (id: string) => {
        const handle = h.temporal.workflow.getHandle(id);
        await handle.result();
        return handle.fetchHistory();
      };
      await api.post('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'history-client', apiClientSecret: 'sk_history' }, key()).expect(201);
      const coin = (
        await api.post('/stablecoins', { providerTokenIdentifier: 'HIST', networkTokenIdentifier: 'btkn1hist', network: 'SPARK' }, key()).expect(201)
      ).body.id as string;
      await save('stablecoinIssuance', 'provisioned', await finished(coin));
      const rejected = (
        await api.post('/stablecoins', { providerTokenIdentifier: 'REJECTHIST', networkTokenIdentifier: 'btkn1reject', network: 'SPARK' }, key()).expect(201)
      ).body.id as string;
      await save('stablecoinIssuance', 'rejected', await finished(rejected));

      const wallet = (
        await api
          .post('/platform/external-accounts', {
            currency: 'USDB',
            accountInfo: { accountType: 'SPARK_WALLET', address: 'sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4' },
          })
          .expect(201)
      ).body.id as string;
      const bank = (await api.post('/platform/external-accounts', usdAccount('123456789')).expect(201)).body.id as string;
      await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: bank }, { bankValidation: 'PASSED' });
      const mint = (amount: string, fundingSource: Record<string, unknown>) =>
        api.post(`/stablecoins/${coin}/mints`, { amount, fundingSource, destination: { accountId: wallet } }, key());

      const funded = (await mint('5000000', { type: 'WIRE' }).expect(201)).body.id as string;
      await api.post(`/sandbox/stablecoin-operations/${funded}/fund`).expect(200);
      await save('stablecoinOperation', 'wire-mint-completed', await finished(funded));
      process.env.SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS = '2';
      const expiring = (await mint('1000000', { type: 'WIRE' }).expect(201)).body.id as string;
      delete process.env.SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS;
      await save('stablecoinOperation', 'wire-mint-expired', await finished(expiring));
      const refused = (await mint('13130000', { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' }).expect(400)).body
        .details.stablecoinOperationId as string;
      await save('stablecoinOperation', 'refused-by-provider', await finished(refused));
      const burned = (
        await api
          .post(
            `/stablecoins/${coin}/burns`,
            {
              amount: '2000000',
              source: { type: 'PROVIDER_INTERNAL_BALANCE' },
              destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'WIRE' },
            },
            key(),
          )
          .expect(201)
      ).body.id as string;
      await save('stablecoinOperation', 'burn-completed', await finished(burned));
    } finally {
      await h.stop();
    }
  }, 120_000);
  test('SCA: scaChallenge authorized, voided by wrong proofs, lapsed; the payments they held (released, failed SCA_NOT_COMPLETED) and a real-time quote authorized then funded; on the dev server', async () => {
    const h = await Harness.start();
    try {
      const p = await h.platform({ region: 'EU' });
      const { customer } = await seedCustomer(h, p.platform.id);
      await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { contactVerification: { email: 'VERIFIED', phone: 'VERIFIED' } });
      await openScaSession(h.orm.em.fork(), {
        platformId: p.platform.id,
        customerId: customer.id,
        factor: 'SMS_OTP',
        endUserIpAddress: '203.0.113.42',
        now: new Date(),
      });
      const eur = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=EUR`)).body.data[0].id as string;
      await p.api.post(`/sandbox/internal-accounts/${eur}/fund`, { amount: 1_000_000 }).expect(200);
      const bank = (
        await p.api.post('/customers/external-accounts', { customerId: customer.id, ...eurAccount(ibanOf('DE', '370400440532013999')) }).expect(201)
      ).body.id as string;
      const run = (id: string) => h.temporal.workflow.getHandle(id);
      const finished = async (id: string) => {
        await run(id).result();
        return run(id).fetchHistory();
      };
      const held = async () => {
        const q = (
          await p.api
            .post('/quotes', {
              source: { sourceType: 'ACCOUNT', accountId: eur },
              destination: { destinationType: 'ACCOUNT', accountId: bank },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 10_000,
            })
            .expect(201)
        ).body as { id: string; transactionId: string };
        const executed = await p.api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': `history-${q.id}` }).expect(200);
        return { ...q, challengeId: executed.body.scaChallenge.id as string };
      };

      const authorized = await held();
      await p.api.post(`/quotes/${authorized.id}/authorize`, { code: SANDBOX_CODE }).expect(200);
      await save('scaChallenge', 'authorized', await finished(authorized.challengeId));
      await save('payment', 'sca-authorized', await finished(authorized.transactionId));

      h.deps.scaChallengeTtlMs = 2_000;
      const lapsed = await held();
      delete h.deps.scaChallengeTtlMs;
      await save('scaChallenge', 'lapsed', await finished(lapsed.challengeId));
      await save('payment', 'sca-lapsed', await finished(lapsed.transactionId));

      const realTime = (
        await p.api
          .post('/quotes', {
            source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: customer.id },
            destination: { destinationType: 'ACCOUNT', accountId: bank },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 10_000,
          })
          .expect(202)
      ).body;
      await p.api.post(`/quotes/${realTime.id}/authorize`, { code: SANDBOX_CODE }).expect(200);
      await save('scaChallenge', 'real-time-authorized', await finished(realTime.scaChallenge.id));
      await p.api.post('/sandbox/send', { quoteId: realTime.id, currencyCode: 'EUR' }).expect(200);
      await save('payment', 'sca-real-time-authorized-funded', await finished(realTime.transactionId));
      // Last: five wrong proofs lock the customer out of SCA for a while (the lockout ladder).
      const voided = await held();
      for (let i = 0; i < 5; i++) await p.api.post(`/quotes/${voided.id}/authorize`, { code: '000000' });
      await save('scaChallenge', 'voided', await finished(voided.challengeId));
      await save('payment', 'sca-voided', await finished(voided.transactionId));
    } finally {
      await h.stop();
    }
  }, 180_000);
});
