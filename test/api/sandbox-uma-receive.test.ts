import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

describe('POST /sandbox/uma/receive', () => {
  test('a sandbox sender pays a customer by UMA address: credited, COMPLETED, announced', async () => {
    const { api, uma } = await h.platform();
    const receiver = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `r-${Math.random()}`,
      fullName: 'Bob',
      umaAddress: uma(`bob.${Date.now()}`),
    });
    const res = await api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.example.com',
      receiverUmaAddress: receiver.body.umaAddress.toUpperCase(),
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 2_500,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      status: 'COMPLETED',
      customerId: receiver.body.id,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.example.com' },
      receivedAmount: { amount: 2_500, currency: { code: 'USD' } },
    });
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(receiver.body.id)}&currency=USD`);
    expect(accounts.body.data[0].balance.amount).toBe(2_500);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'INCOMING_PAYMENT.COMPLETED' && w.body.data.id === res.body.id));
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('the receiver must be named, exist on this platform and hold the currency; sandbox tokens only', async () => {
    const { api } = await h.platform();
    const receiver = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `r-${Math.random()}`, fullName: 'Bob' });
    const body = { senderUmaAddress: '$s@sandbox.example.com', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 };
    expect((await api.post('/sandbox/uma/receive', body)).body.details.errors[0].field).toBe('receiverUmaAddress');
    expect((await api.post('/sandbox/uma/receive', { ...body, receiverUmaAddress: '$nobody@uma.example.com' })).body.code).toBe('UMA_NOT_FOUND');
    const noAccount = await api.post('/sandbox/uma/receive', { ...body, customerId: receiver.body.id, receivingCurrencyCode: 'MXN' });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.details.errors[0].field).toBe('receivingCurrencyCode');
    const badSender = await api.post('/sandbox/uma/receive', { ...body, customerId: receiver.body.id, senderUmaAddress: 'nobody' });
    expect(badSender.body.details.errors[0].field).toBe('senderUmaAddress');
    const other = await h.platform();
    expect((await other.api.post('/sandbox/uma/receive', { ...body, customerId: receiver.body.id })).status).toBe(404);
    const production = await h.platform({ environment: 'PRODUCTION' });
    expect((await production.api.post('/sandbox/uma/receive', { ...body, customerId: receiver.body.id })).status).toBe(403);
  });
});
