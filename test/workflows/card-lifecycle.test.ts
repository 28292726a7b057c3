import type { MikroORM } from '@mikro-orm/postgresql';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { Card, CardTransaction } from '../../src/contexts/cards/entities';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { applyCardEvent } from '../../src/contexts/cards/services/card-transactions';
import { provisionCard } from '../../src/contexts/cards/services/cards';
import type { cardLifecycle } from '../../workflows/cards/card-lifecycle';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';
import { domainErrorFrom } from '../../src/temporal/failures';
import { cardNetworkEventUpdate, changeCardUpdate } from '../../workflows/cards/definitions';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import { processingCard, startCard } from '../support/card-fixtures';
import { eventually } from '../support/eventually';
import { loopbackWebhookSender, WebhookReceiver } from '../support/receiver';
import { timeSkippingEnvironment } from '../support/time-skipping';

// The card's lifecycle on the time-skipping server, with the real activities and database: the
// issuer's answer and an authorization's expiry are durable timers that pass in moments.

let env: TestWorkflowEnvironment;
let orm: MikroORM;
let receiver: WebhookReceiver;
let worker: Worker;
let running: Promise<void>;
let taskQueue: string;
const masterKey = () => parseMasterKey(process.env.MASTER_KEY!);
const timing = { issuerResponseSeconds: 30, authorizationWindowSeconds: 7 * 24 * 3600 };

beforeAll(async () => {
  quietTemporalRuntime();
  orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 5 });
  receiver = await new WebhookReceiver().start();
}, 120_000);

// A test server of its own for each test (see customer-verification.test.ts).
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

const cardRow = (id: string) => orm.em.fork().findOneOrFail(Card, { id });
const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    return domainErrorFrom(err)?.code ?? String(err);
  }
};
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };

test('issuance: PROCESSING until the issuer answers after 30 s of workflow time, then ACTIVE with CARD.STATE_CHANGE', async () => {
  const { card } = await processingCard(orm, masterKey(), { webhookEndpoint: receiver.url, funds: 0n });
  const handle = await startCard(env.client, taskQueue, card, timing);
  expect((await cardRow(card.id)).state).toBe('PROCESSING');
  // A state change while the issuer has not answered is refused.
  expect(await codeOf(handle.executeUpdate(changeCardUpdate, { args: [{ state: 'FROZEN' }] }))).toBe('INVALID_STATE_TRANSITION');
  await env.sleep(31_000);
  const active = await cardRow(card.id);
  expect(active).toMatchObject({ state: 'ACTIVE', brand: 'VISA' });
  expect(active.last4).toMatch(/^\d{4}$/);
  expect(await orm.em.fork().count(WebhookEvent, { type: 'CARD.STATE_CHANGE', payload: { $like: `%${card.id}%` } })).toBe(1);
  const history = await handle.fetchHistory();
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers).toContain(30);
  await handle.terminate();
});

test('issuer rejection (platformCardId 002): CLOSED with ISSUER_REJECTED, and the run ends', async () => {
  const { card } = await processingCard(orm, masterKey(), { webhookEndpoint: receiver.url, funds: 0n, platformCardId: 'wf-reject-002' });
  const handle = await startCard(env.client, taskQueue, card, timing);
  expect(await handle.result()).toEqual({ state: 'CLOSED' });
  expect(await cardRow(card.id)).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED', last4: null });
});

/** Past the issuer's 1 s timer, until its activity (real time: longer on a loaded machine) made the card ACTIVE. */
async function issued(cardId: string): Promise<void> {
  await env.sleep(2_000);
  expect(
    (
      await eventually(
        () => cardRow(cardId),
        (c) => c.state === 'ACTIVE',
      )
    ).state,
  ).toBe('ACTIVE');
}

test('concurrent state changes are applied one at a time and each is answered truthfully', async () => {
  const { card } = await processingCard(orm, masterKey(), { webhookEndpoint: receiver.url, funds: 0n });
  const handle = await startCard(env.client, taskQueue, card, { ...timing, issuerResponseSeconds: 1 });
  await issued(card.id);

  const freezes = await Promise.all([1, 2, 3].map(() => codeOf(handle.executeUpdate(changeCardUpdate, { args: [{ state: 'FROZEN' }] }))));
  expect(freezes.sort()).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'OK']);
  const closes = await Promise.all([1, 2].map(() => codeOf(handle.executeUpdate(changeCardUpdate, { args: [{ state: 'CLOSED' }] }))));
  expect(closes.sort()).toEqual(['CARD_ALREADY_CLOSED', 'OK']);
  expect(await handle.result()).toEqual({ state: 'CLOSED' });
  expect(await cardRow(card.id)).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
  const changes = await orm.em.fork().find(WebhookEvent, { type: 'CARD.STATE_CHANGE', payload: { $like: `%${card.id}%` } }, { orderBy: { createdAt: 'asc' } });
  expect(changes.map((e) => (JSON.parse(e.payload) as { data: { state: string } }).data.state)).toEqual(['ACTIVE', 'FROZEN', 'CLOSED']);
});

test('an authorization never cleared in full expires after its window: what is still held goes back on a durable timer', async () => {
  const { card, accountId } = await processingCard(orm, masterKey(), { webhookEndpoint: receiver.url, funds: 10_000n });
  const handle = await startCard(env.client, taskQueue, card, { issuerResponseSeconds: 1, authorizationWindowSeconds: 3600 });
  await issued(card.id);
  const auth = await handle.executeUpdate(cardNetworkEventUpdate, {
    args: [
      {
        token: 'wf-auth-1',
        event: { kind: 'AUTHORIZATION', cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-00000000a001', amount: '4000', currency: 'USD', merchant },
      },
    ],
  });
  expect(auth).toEqual({ issuerTransactionToken: 'wf-auth-1', cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-00000000a001' });
  const txId = auth.cardTransactionId!;
  await handle.executeUpdate(cardNetworkEventUpdate, { args: [{ token: 'wf-clear-1', event: { kind: 'CLEARING', cardTransactionId: txId, amount: '1000' } }] });
  expect(await orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId })).toMatchObject({ balance: 6_000n, held: 3_000n });
  // Closed with a hold open: the run stays until the hold expires, an hour of workflow time later.
  await handle.executeUpdate(changeCardUpdate, { args: [{ state: 'CLOSED' }] });
  expect(await handle.result()).toEqual({ state: 'CLOSED' });

  expect(await orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId })).toMatchObject({ balance: 9_000n, held: 0n });
  expect(await orm.em.fork().findOneOrFail(CardTransaction, { id: txId })).toMatchObject({
    status: 'SETTLED',
    settledAmount: 1_000n,
    heldAmount: 0n,
    expiresAt: null,
  });
  const history = await handle.fetchHistory();
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers.some((s) => s >= 3590 && s <= 3600)).toBe(true);
  await receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'CARD_TRANSACTION.SETTLED' && x.body.data.id === txId));
});

test('a continued run (continue-as-new) takes over the open holds and releases each at its stamped expiry', async () => {
  const { card, accountId } = await processingCard(orm, masterKey(), { webhookEndpoint: receiver.url, funds: 5_000n });
  // What the run before left: an ACTIVE card with a hold whose expiry is stamped an hour ahead.
  await provisionCard(orm.em.fork(), masterKey(), card.id);
  const txId = 'CardTransaction:00000000-0000-4000-8000-00000000b001';
  await applyCardEvent(orm.em.fork(), {
    cardId: card.id,
    token: 'wf-carry-1',
    authorizationWindowSeconds: 3600,
    event: { kind: 'AUTHORIZATION', cardTransactionId: txId, amount: '2000', currency: 'USD', merchant },
  });
  expect(await orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId })).toMatchObject({ balance: 3_000n, held: 2_000n });

  const continued = await env.client.workflow.start<typeof cardLifecycle>('cardLifecycle', {
    workflowId: card.id,
    taskQueue,
    args: [
      {
        cardId: card.id,
        platformId: card.platformId,
        customerId: card.cardholderId,
        environment: 'SANDBOX',
        issuerResponseSeconds: 1,
        authorizationWindowSeconds: 3600,
        openAuthorizations: [txId],
      },
    ],
  });
  await continued.executeUpdate(changeCardUpdate, { args: [{ state: 'CLOSED' }] });
  expect(await continued.result()).toEqual({ state: 'CLOSED' });
  expect(await orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId })).toMatchObject({ balance: 5_000n, held: 0n });
  expect(await orm.em.fork().findOneOrFail(CardTransaction, { id: txId })).toMatchObject({ status: 'SETTLED', heldAmount: 0n });
  const history = await continued.fetchHistory();
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers.some((s) => s >= 3500 && s <= 3600)).toBe(true);
});
