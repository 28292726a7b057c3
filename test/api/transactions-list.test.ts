import { Transaction } from '../../src/contexts/payments/entities';
import { Harness } from '../support/harness';

// GET /transactions answered 200 with unfiltered data for most of its documented filters
// (a start date in 2031 still listed everything; ascending order still came newest first).

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function setUp() {
  const { api, platform } = await h.platform();
  const funded: { customerId: string; platformCustomerId: string; accountId: string }[] = [];
  for (const name of ['ada', 'grace']) {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `${name}-${Date.now()}`, fullName: 'Test Person' });
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
    funded.push({ customerId: customer.body.id, platformCustomerId: customer.body.platformCustomerId, accountId: accounts.body.data[0].id });
  }
  // Three fundings, in order, with distinct creation times.
  for (const [i, who] of [0, 1, 0].entries()) {
    await api.post(`/sandbox/internal-accounts/${funded[who]!.accountId}/fund`, { amount: 100 + i }).expect(200);
  }
  return { api, platform, funded };
}

const amounts = (res: { body: { data: { receivedAmount: { amount: number } }[] } }) => res.body.data.map((t) => t.receivedAmount.amount);

test('every documented filter narrows the list, and sortOrder orders it', async () => {
  const { api, platform, funded } = await setUp();
  expect(amounts(await api.get('/transactions'))).toEqual([102, 101, 100]);
  expect(amounts(await api.get('/transactions?sortOrder=asc'))).toEqual([100, 101, 102]);
  expect(amounts(await api.get(`/transactions?customerId=${encodeURIComponent(funded[0]!.customerId)}`))).toEqual([102, 100]);
  expect(amounts(await api.get(`/transactions?platformCustomerId=${encodeURIComponent(funded[1]!.platformCustomerId)}`))).toEqual([101]);
  expect(amounts(await api.get(`/transactions?accountIdentifier=${encodeURIComponent(funded[1]!.accountId)}`))).toEqual([101]);
  expect(amounts(await api.get(`/transactions?receiverAccountIdentifier=${encodeURIComponent(funded[0]!.accountId)}`))).toEqual([102, 100]);
  expect(amounts(await api.get(`/transactions?senderAccountIdentifier=${encodeURIComponent(funded[0]!.accountId)}`))).toEqual([]);
  expect(amounts(await api.get('/transactions?reference=INV-1'))).toEqual([]);
  expect(amounts(await api.get(`/transactions?customerId=${encodeURIComponent(platform.id)}`))).toEqual([]);
  expect(amounts(await api.get('/transactions?status=COMPLETED&type=INCOMING'))).toEqual([102, 101, 100]);
  expect(amounts(await api.get('/transactions?status=FAILED'))).toEqual([]);

  expect((await api.get('/transactions?startDate=2031-01-01T00:00:00Z')).body).toMatchObject({ data: [], totalCount: 0 });
  expect(amounts(await api.get('/transactions?endDate=2000-01-01T00:00:00Z'))).toEqual([]);
  const middle = await h.orm.em.fork().find(Transaction, { platformId: platform.id }, { orderBy: { createdAt: 'asc' } });
  const at = encodeURIComponent(middle[1]!.createdAt.toISOString());
  expect(amounts(await api.get(`/transactions?startDate=${at}`))).toEqual([102, 101]);
  expect(amounts(await api.get(`/transactions?endDate=${at}&sortOrder=asc`))).toEqual([100, 101]);
});

test('ascending pages continue in ascending order', async () => {
  const { api } = await setUp();
  const first = await api.get('/transactions?sortOrder=asc&limit=2');
  expect(amounts(first)).toEqual([100, 101]);
  const second = await api.get(`/transactions?sortOrder=asc&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
  expect(amounts(second)).toEqual([102]);
  expect(second.body.hasMore).toBe(false);
});

test('a malformed date or order is refused with the field named', async () => {
  const { api } = await setUp();
  const res = await api.get('/transactions?startDate=yesterday&sortOrder=up');
  expect(res.status).toBe(400);
  expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['sortOrder', 'startDate']);
});
