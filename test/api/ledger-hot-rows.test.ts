import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { holdFunds, pendingOutgoingAccountId } from '../../src/contexts/ledger/services/holds';
import { ensureSystemAccount, ledgerBalance, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { openInternalAccount } from '../../src/contexts/ledger/services/internal-accounts';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Harness } from '../support/harness';
import { twoAccounts } from '../support/ledger-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

/** Resolves with the value, or with 'blocked' when `ms` pass first. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | 'blocked'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<'blocked'>((ok) => (timer = setTimeout(() => ok('blocked'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('no platform-wide hot row on the money path', () => {
  test("a customer's payout hold does not wait for another customer's open transaction on the same platform", async () => {
    // Two customers' accounts (a and b) of one platform, both funded.
    const { platformId, a, b } = await twoAccounts(h.orm, 1_000n, 'hot-rows');
    await h.orm.em
      .fork()
      .transactional((tx) => postEntry(tx, { platformId, idempotencyKey: `seed-b:${b}`, description: 'seed', lines: transfer(a, b, 'USD', 400n) }));
    // An earlier payout created the platform's payout accounts (as provisioning would).
    await h.orm.em
      .fork()
      .transactional((tx) => holdFunds(tx, { platformId, transactionId: `Transaction:hot-earlier-${b}`, accountId: b, currency: 'USD', amount: 50n }));

    // Customer a's hold is posted and its transaction stays open (as a slow payout's would).
    let finishFirst!: () => void;
    const firstOpen = new Promise<void>((posted) => {
      void h.orm.em.fork().transactional(async (tx) => {
        await holdFunds(tx, { platformId, transactionId: `Transaction:hot-a-${a}`, accountId: a, currency: 'USD', amount: 100n });
        posted();
        await new Promise<void>((release) => (finishFirst = release));
      });
    });
    await firstOpen;
    try {
      // Customer b's hold on the same platform completes meanwhile: PENDING_OUTGOING is not locked.
      const second = h.orm.em
        .fork()
        .transactional((tx) => holdFunds(tx, { platformId, transactionId: `Transaction:hot-b-${b}`, accountId: b, currency: 'USD', amount: 150n }));
      expect(await within(3_000, second)).not.toBe('blocked');
    } finally {
      finishFirst();
    }
    await new Promise((r) => setTimeout(r, 100));
    // Both holds are in the derived balance of the shared account, and the customers' own balances stand.
    expect(await h.orm.em.fork().transactional((tx) => ledgerBalance(tx, pendingOutgoingAccountId(platformId, 'USD')))).toBe(300n);
    const read = (id: string) => h.orm.em.fork().findOneOrFail(LedgerAccount, { id });
    expect(await read(a)).toMatchObject({ balance: 500n, held: 100n });
    expect(await read(b)).toMatchObject({ balance: 200n, held: 200n });
    expect((await read(pendingOutgoingAccountId(platformId, 'USD'))).balance).toBe(300n);
    expect((await read(sandboxFundingAccountId(platformId, 'USD'))).balance).toBe(-1_000n);
    const { findings } = await runLedgerAudit(h.orm.em.fork());
    expect(findings).toEqual([]);
  });

  test('a shared account carries no held amount (its row is never locked)', async () => {
    const { platformId, a } = await twoAccounts(h.orm, 100n, 'hot-rows-held');
    const source = sandboxFundingAccountId(platformId, 'USD');
    await expect(
      h.orm.em.fork().transactional((tx) =>
        postEntry(tx, {
          platformId,
          idempotencyKey: `held-shared:${a}`,
          description: 'x',
          lines: transfer(a, source, 'USD', 10n),
          heldChanges: [{ accountId: source, delta: 10n }],
        }),
      ),
    ).rejects.toThrow(/held/);
  });

  test('one account paying out concurrently is never overdrawn', async () => {
    const em = h.orm.em.fork();
    const { platformId } = await twoAccounts(h.orm, 1n, 'hot-rows-overdraw');
    const payer = openInternalAccount(em, { platformId, customerId: null, currency: 'USD' });
    await em.flush();
    const source = sandboxFundingAccountId(platformId, 'USD');
    await em.transactional(async (tx) => {
      await ensureSystemAccount(tx, platformId, source, 'SANDBOX_FUNDING_SOURCE', 'USD');
      await postEntry(tx, { platformId, idempotencyKey: `seed:${payer.id}`, description: 'seed', lines: transfer(source, payer.id, 'USD', 1_000n) });
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        h.orm.em
          .fork()
          .transactional((tx) =>
            holdFunds(tx, { platformId, transactionId: `Transaction:over-${payer.id}-${i}`, accountId: payer.id, currency: 'USD', amount: 300n }),
          ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(await h.orm.em.fork().findOneOrFail(LedgerAccount, { id: payer.id })).toMatchObject({ balance: 100n, held: 900n });
    expect(await h.orm.em.fork().transactional((tx) => ledgerBalance(tx, pendingOutgoingAccountId(platformId, 'USD')))).toBe(900n);
  });
});
