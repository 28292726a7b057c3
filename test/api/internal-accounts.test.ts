import { Customer } from '../../src/contexts/customers/entities';
import { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { END_USER_TERMS, type AgreementConsent } from '../../src/contexts/customers/domain/onboarding';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { provisionCustomerAccounts } from '../../src/contexts/customers/services/account-provisioning';
import { announceOpenedAccounts } from '../../src/contexts/ledger';
import { Harness } from '../support/harness';
import { seedCustomer } from '../support/onboarding-seed';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const consent: AgreementConsent = {
  agreementType: END_USER_TERMS,
  termsVersion: '2025-10-13',
  acceptedAt: '2026-11-21T10:00:00Z',
  ipAddress: '203.0.113.7',
  acceptanceMethod: 'CLICK_TO_ACCEPT',
};

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** An InternalAccount as the API returns it (the parts these tests read). */
interface AccountJson {
  id: string;
  customerId?: string;
  type: string;
  status: string;
  privateEnabled?: boolean;
  balance: { amount: number; currency: { code: string; decimals: number } };
  totalBalance: { amount: number };
  fundingPaymentInstructions: { isPlatformAccount: boolean; accountOrWalletInfo: { accountType: string; reference?: string; address?: string } }[];
  createdAt: string;
}
type FieldErrorJson = { field: string; constraint: { rule: string } };

async function accountsOf(api: Api, customerId: string, extra = '') {
  const res = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&limit=100${extra}`);
  expect(res.status).toBe(200);
  return res.body.data as AccountJson[];
}

/** Re-reads the customer and runs provisioning, as the consent / approval flows do. */
async function provision(customerId: string) {
  const em = h.orm.em.fork();
  const customer = await em.findOneOrFail(Customer, { id: customerId });
  const platform = await em.findOneOrFail(Platform, { id: customer.platformId });
  return { em, opened: await provisionCustomerAccounts(em, platform, customer) };
}

const summary = (accounts: AccountJson[]) => accounts.map((a) => `${a.type} ${a.balance.currency.code}`).sort();

describe('provisioning', () => {
  test('regulated platform: POST /customers opens the accounts at creation', async () => {
    const { api } = await h.platform();
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Date.now()}`, fullName: 'Ada Lovelace' });
    expect(created.status).toBe(201);
    const accounts = await accountsOf(api, created.body.id);
    expect(summary(accounts)).toEqual(['INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD']);
    for (const a of accounts) {
      expect(a).toMatchObject({
        customerId: created.body.id,
        status: 'ACTIVE',
        balance: { amount: 0, currency: { decimals: 2 } },
        totalBalance: { amount: 0 },
      });
      expect(a).not.toHaveProperty('privateEnabled');
      expect(a.fundingPaymentInstructions).toEqual([
        expect.objectContaining({
          isPlatformAccount: false,
          accountOrWalletInfo: expect.objectContaining({ reference: expect.stringMatching(/^SVC[0-9A-F]{12}$/) }),
        }),
      ]);
    }
  });

  test('regulated platform: a customer not yet approved holds nothing until approval', async () => {
    const { api, platform } = await h.platform();
    const { customer, opened } = await seedCustomer(h, platform.id, { kycStatus: 'PENDING' });
    expect(opened).toEqual([]);
    expect(await accountsOf(api, customer.id)).toEqual([]);
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { kycStatus: 'APPROVED' });
    expect((await provision(customer.id)).opened).toHaveLength(2);
    expect(summary(await accountsOf(api, customer.id))).toEqual(['INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD']);
  });

  test('unregulated platform: no accounts until both approval and the end-user terms', async () => {
    const { api, platform } = await h.platform({ isRegulatedFinancialInstitution: false });
    const { customer, opened } = await seedCustomer(h, platform.id, { kycStatus: 'UNVERIFIED' });
    expect(opened).toEqual([]);

    // Terms alone: nothing.
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { agreementConsents: [consent] });
    expect((await provision(customer.id)).opened).toEqual([]);
    // Approval without terms: nothing.
    const other = await seedCustomer(h, platform.id, { kycStatus: 'APPROVED' });
    expect(other.opened).toEqual([]);
    expect(await accountsOf(api, other.customer.id)).toEqual([]);

    // Both: accounts, once.
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { kycStatus: 'APPROVED' });
    expect((await provision(customer.id)).opened.map((a) => a.currency).sort()).toEqual(['EUR', 'USD']);
    expect((await provision(customer.id)).opened).toEqual([]);
    expect(summary(await accountsOf(api, customer.id))).toEqual(['INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD']);
  });

  test('a deleted customer opens no new accounts', async () => {
    const { platform } = await h.platform();
    const { customer } = await seedCustomer(h, platform.id, { kycStatus: 'PENDING' });
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { kycStatus: 'APPROVED', isDeleted: true });
    expect((await provision(customer.id)).opened).toEqual([]);
  });

  test('a currency enabled later gets its account; held ones are not reopened', async () => {
    const { api, platform } = await h.platform({ currencies: ['USD', 'EUR', 'GBP'] });
    const { customer } = await seedCustomer(h, platform.id, { currencies: ['USD'] });
    expect(summary(await accountsOf(api, customer.id))).toEqual(['INTERNAL_FIAT USD']);
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { currencies: ['USD', 'GBP'] });
    expect((await provision(customer.id)).opened.map((a) => a.currency)).toEqual(['GBP']);
    expect(summary(await accountsOf(api, customer.id))).toEqual(['INTERNAL_FIAT GBP', 'INTERNAL_FIAT USD']);
  });

  test('platforms with embedded wallets: each customer also gets a USDB EMBEDDED_WALLET', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { customer } = await seedCustomer(h, platform.id);
    expect(summary(await accountsOf(api, customer.id))).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD']);
    const [wallet, ...rest] = await accountsOf(api, customer.id, '&type=EMBEDDED_WALLET');
    expect(rest).toEqual([]);
    expect(wallet).toMatchObject({
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
      privateEnabled: false,
      balance: { amount: 0, currency: { code: 'USDB', decimals: 6 } },
      fundingPaymentInstructions: [
        { isPlatformAccount: false, accountOrWalletInfo: { accountType: 'SPARK_WALLET', assetType: 'USDB', address: expect.stringMatching(/^spark1/) } },
      ],
    });
  });

  test('sandbox global account: a platform supporting USDB gives every customer the USDB wallet', async () => {
    const { api, platform } = await h.platform({ currencies: ['USD', 'USDB'] });
    expect(platform.embeddedWalletsSupported).toBe(false);
    const { customer: usdOnly } = await seedCustomer(h, platform.id, { currencies: ['USD'] });
    expect(summary(await accountsOf(api, usdOnly.id))).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_FIAT USD']);
    const { customer: both } = await seedCustomer(h, platform.id, { currencies: ['USD', 'USDB'] });
    expect(summary(await accountsOf(api, both.id))).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_CRYPTO USDB', 'INTERNAL_FIAT USD']);
    // The customer's two USDB balances have different deposit addresses.
    const addresses = (await accountsOf(api, both.id, '&currency=USDB')).map((a) => a.fundingPaymentInstructions[0].accountOrWalletInfo.address);
    expect(new Set(addresses).size).toBe(2);
  });

  test('no wallet where the platform supports neither embedded wallets nor USDB', async () => {
    const { api, platform } = await h.platform({ currencies: ['USD', 'USDC'] });
    const { customer } = await seedCustomer(h, platform.id);
    expect(summary(await accountsOf(api, customer.id))).toEqual(['INTERNAL_CRYPTO USDC', 'INTERNAL_FIAT USD']);
  });

  test('concurrent provisioning of one customer opens each account once', async () => {
    const { platform } = await h.platform({ embeddedWalletsSupported: true });
    const { customer } = await seedCustomer(h, platform.id, { kycStatus: 'PENDING' });
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { kycStatus: 'APPROVED' });
    const results = await Promise.all(Array.from({ length: 6 }, () => provision(customer.id)));
    expect(results.flatMap((r) => r.opened.map((a) => `${a.type} ${a.currency}`)).sort()).toEqual([
      'EMBEDDED_WALLET USDB',
      'INTERNAL_FIAT EUR',
      'INTERNAL_FIAT USD',
    ]);
    expect(await h.orm.em.fork().count(InternalAccount, { customerId: customer.id })).toBe(3);
  });

  test('opened accounts are announced with INTERNAL_ACCOUNT.STATUS_UPDATED (ACTIVE), once', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { customer } = await seedCustomer(h, platform.id, { kycStatus: 'PENDING' });
    await h.orm.em.fork().nativeUpdate(Customer, { id: customer.id }, { kycStatus: 'APPROVED' });
    const { em, opened } = await provision(customer.id);
    expect(opened).toHaveLength(3);
    const ctx = { em, temporal: h.temporal, taskQueue: h.taskQueue, environment: 'SANDBOX' as const };
    await announceOpenedAccounts(ctx, opened);

    const ids = opened.map((a) => a.id);
    await h.receiver.waitFor((hooks) => ids.every((id) => hooks.some((x) => x.body.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && x.body.data.id === id)));
    const listed = await accountsOf(api, customer.id);
    for (const id of ids) {
      const hook = h.receiver.ofType('INTERNAL_ACCOUNT.STATUS_UPDATED').find((x) => x.body.data.id === id)!;
      // The payload is the account as GET shows it.
      expect(hook.body.data).toEqual(listed.find((a) => a.id === id));
      expect(hook.body.data.status).toBe('ACTIVE');
    }
    // Announcing again records nothing new and sends nothing twice.
    await announceOpenedAccounts(ctx, opened);
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.orm.em.fork().count(WebhookEvent, { platformId: platform.id, type: 'INTERNAL_ACCOUNT.STATUS_UPDATED' })).toBe(3);
    expect(h.receiver.ofType('INTERNAL_ACCOUNT.STATUS_UPDATED').filter((x) => ids.includes(String(x.body.data.id)))).toHaveLength(3);
  });

  test('platform accounts: one per supported currency; a currency added with PATCH /config opens and announces one', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'USDB'] });
    const before = await api.get('/platform/internal-accounts');
    expect(before.status).toBe(200);
    expect(Object.keys(before.body)).toEqual(['data']);
    expect(summary(before.body.data)).toEqual(['INTERNAL_CRYPTO USDB', 'INTERNAL_FIAT USD']);

    const supportedCurrencies = ['USD', 'USDB', 'GBP'].map((currencyCode) => ({
      currencyCode,
      minAmount: 1,
      maxAmount: 1_000_000,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
    }));
    const patched = await api.patch('/config', { supportedCurrencies });
    expect(patched.status).toBe(200);
    const after = (await api.get('/platform/internal-accounts')).body.data as AccountJson[];
    expect(summary(after)).toEqual(['INTERNAL_CRYPTO USDB', 'INTERNAL_FIAT GBP', 'INTERNAL_FIAT USD']);
    const gbp = after.find((a) => a.balance.currency.code === 'GBP')!;
    expect(gbp.fundingPaymentInstructions[0]).toMatchObject({ isPlatformAccount: true, accountOrWalletInfo: { accountType: 'GBP_ACCOUNT' } });
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && x.body.data.id === gbp.id));
    // Repeating the same configuration opens nothing.
    expect((await api.patch('/config', { supportedCurrencies })).status).toBe(200);
    expect((await api.get('/platform/internal-accounts')).body.data).toHaveLength(3);
  });
});

describe('GET /customers/internal-accounts', () => {
  test('filters by customer, currency and type, newest first, with cursor pages', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { customer: a } = await seedCustomer(h, platform.id);
    const { customer: b } = await seedCustomer(h, platform.id);

    const all = await api.get('/customers/internal-accounts');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ hasMore: false, totalCount: 6 });
    expect(all.body.data).toHaveLength(6);
    expect(all.body.data.every((x: AccountJson) => x.customerId)).toBe(true); // platform accounts are not listed here

    expect((await accountsOf(api, a.id)).every((x) => x.customerId === a.id)).toBe(true);
    const usd = (await api.get('/customers/internal-accounts?currency=USD')).body;
    expect(usd.totalCount).toBe(2);
    expect(usd.data.map((x: AccountJson) => x.customerId).sort()).toEqual([a.id, b.id].sort());
    const bWallet = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(b.id)}&type=EMBEDDED_WALLET&currency=USDB`)).body;
    expect(bWallet.data).toHaveLength(1);
    expect(bWallet.data[0]).toMatchObject({ customerId: b.id, type: 'EMBEDDED_WALLET' });
    expect((await api.get('/customers/internal-accounts?type=INTERNAL_CRYPTO')).body).toMatchObject({ data: [], totalCount: 0, hasMore: false });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await api.get(`/customers/internal-accounts?limit=4${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(page.totalCount).toBe(6);
      seen.push(...page.data.map((x: AccountJson) => x.id));
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((x: AccountJson) => x.id));
    const created = all.body.data.map((x: AccountJson) => x.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  test('available balance excludes held funds, total includes them; amounts come from the ledger', async () => {
    const { api, platform } = await h.platform();
    const { customer } = await seedCustomer(h, platform.id, { currencies: ['USD'] });
    const [account] = await accountsOf(api, customer.id);
    expect((await api.post(`/sandbox/internal-accounts/${account!.id}/fund`, { amount: 12_345 })).status).toBe(200);
    await h.orm.em.fork().nativeUpdate(LedgerAccount, { id: account!.id }, { held: 345n });
    const [after] = await accountsOf(api, customer.id);
    expect(after).toMatchObject({
      balance: { amount: 12_345, currency: { code: 'USD', decimals: 2 } },
      totalBalance: { amount: 12_690, currency: { code: 'USD', decimals: 2 } },
    });
    await h.orm.em.fork().nativeUpdate(LedgerAccount, { id: account!.id }, { held: 0n });
  });

  test('invalid filters are reported together', async () => {
    const { api } = await h.platform();
    const res = await api.get('/customers/internal-accounts?type=SAVINGS&currency=XYZ&limit=0');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors.map((e: FieldErrorJson) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'currency:enum',
      'limit:minimum',
      'type:enum',
    ]);
    const cursor = await api.get('/customers/internal-accounts?cursor=nonsense');
    expect(cursor.status).toBe(400);
    expect(cursor.body.details.errors[0].field).toBe('cursor');
  });

  test('every account has its own funding reference', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true, currencies: ['USD', 'EUR', 'USDB'] });
    await seedCustomer(h, platform.id);
    await seedCustomer(h, platform.id);
    const accounts = [...(await api.get('/customers/internal-accounts?limit=100')).body.data, ...(await api.get('/platform/internal-accounts')).body.data];
    expect(accounts).toHaveLength(11);
    const coordinates = accounts.map((a: AccountJson) => a.fundingPaymentInstructions[0]!.accountOrWalletInfo).map((i) => i.reference ?? i.address);
    expect(new Set(coordinates).size).toBe(accounts.length);
    const rows = await h.orm.em.fork().find(InternalAccount, { platformId: platform.id });
    expect(new Set(rows.map((r) => r.fundingReference)).size).toBe(rows.length);
  });
});

describe('GET /platform/internal-accounts', () => {
  test("the platform's own accounts only, with filters", async () => {
    const { api, platform } = await h.platform({ currencies: ['USD', 'EUR', 'BTC'], embeddedWalletsSupported: true });
    await seedCustomer(h, platform.id);
    const res = await api.get('/platform/internal-accounts');
    expect(res.status).toBe(200);
    expect(summary(res.body.data)).toEqual(['INTERNAL_CRYPTO BTC', 'INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD']);
    for (const a of res.body.data) {
      expect(a).not.toHaveProperty('customerId');
      expect(a.fundingPaymentInstructions[0].isPlatformAccount).toBe(true);
    }
    expect(summary((await api.get('/platform/internal-accounts?currency=EUR')).body.data)).toEqual(['INTERNAL_FIAT EUR']);
    expect(summary((await api.get('/platform/internal-accounts?type=INTERNAL_CRYPTO')).body.data)).toEqual(['INTERNAL_CRYPTO BTC']);
    expect((await api.get('/platform/internal-accounts?type=EMBEDDED_WALLET')).body.data).toEqual([]);
    const btc = (await api.get('/platform/internal-accounts?currency=BTC')).body.data[0];
    expect(btc.balance.currency).toEqual({ code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 });
  });

  test('invalid filters are 400', async () => {
    const { api } = await h.platform();
    const res = await api.get('/platform/internal-accounts?type=CHECKING&currency=usd');
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: FieldErrorJson) => e.field).sort()).toEqual(['currency', 'type']);
  });
});

describe('platform isolation', () => {
  test("neither list shows another platform's accounts, even when asked by customer id", async () => {
    const owner = await h.platform({ embeddedWalletsSupported: true });
    const { customer } = await seedCustomer(h, owner.platform.id);
    const intruder = await h.platform();

    expect((await intruder.api.get('/customers/internal-accounts')).body).toMatchObject({ data: [], totalCount: 0 });
    expect((await intruder.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).body).toMatchObject({
      data: [],
      totalCount: 0,
    });
    expect((await intruder.api.get('/customers/internal-accounts?type=EMBEDDED_WALLET')).body.data).toEqual([]);
    const ownerPlatformIds = (await owner.api.get('/platform/internal-accounts')).body.data.map((a: AccountJson) => a.id);
    const intruderPlatformIds = (await intruder.api.get('/platform/internal-accounts')).body.data.map((a: AccountJson) => a.id);
    expect(intruderPlatformIds).toHaveLength(2);
    expect(intruderPlatformIds.some((id: string) => ownerPlatformIds.includes(id))).toBe(false);
    // The owner still sees everything.
    expect(await accountsOf(owner.api, customer.id)).toHaveLength(3);
  });

  test("another platform's embedded wallet cannot be funded", async () => {
    const owner = await h.platform({ embeddedWalletsSupported: true });
    const { customer } = await seedCustomer(h, owner.platform.id);
    const [wallet] = await accountsOf(owner.api, customer.id, '&type=EMBEDDED_WALLET');
    const intruder = await h.platform();
    expect((await intruder.api.post(`/sandbox/internal-accounts/${wallet!.id}/fund`, { amount: 5 })).status).toBe(404);
  });
});

describe('ledger', () => {
  test('embedded wallets are funded through the ledger, announce their balance, and the audit covers them', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true, currencies: ['USD', 'USDB'] });
    const wallets: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { customer } = await seedCustomer(h, platform.id);
      const [wallet] = await accountsOf(api, customer.id, '&type=EMBEDDED_WALLET');
      wallets.push(wallet!.id);
      const funded = await api.post(`/sandbox/internal-accounts/${wallet!.id}/fund`, { amount: 2_500_000 * (i + 1) });
      expect(funded.status).toBe(200);
      expect(funded.body).toMatchObject({
        id: wallet!.id,
        type: 'EMBEDDED_WALLET',
        privateEnabled: false,
        balance: { amount: 2_500_000 * (i + 1), currency: { code: 'USDB', decimals: 6 } },
      });
    }
    await h.receiver.waitFor((hooks) => wallets.every((id) => hooks.some((x) => x.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && x.body.data.id === id)));
    const hook = h.receiver.ofType('INTERNAL_ACCOUNT.BALANCE_UPDATED').find((x) => x.body.data.id === wallets[1])!;
    expect(hook.body.data).toMatchObject({ type: 'EMBEDDED_WALLET', privateEnabled: false, balance: { amount: 5_000_000 } });

    const audit = await runLedgerAudit(h.orm.em.fork());
    expect(audit.findings).toEqual([]);
    const em = h.orm.em.fork();
    for (const id of wallets) {
      const ledger = await em.findOneOrFail(LedgerAccount, { id });
      expect(ledger).toMatchObject({ kind: 'INTERNAL_ACCOUNT', currency: 'USDB', allowNegative: false });
    }
    expect(audit.accounts).toBeGreaterThanOrEqual(wallets.length);
  });
});
