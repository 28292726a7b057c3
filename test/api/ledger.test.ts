import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { DomainError } from '../../src/domain/errors';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { migrate, openOrm } from '../../src/db/orm';
import { postEntry } from '../../src/contexts/ledger/services/ledger';
import { Harness } from '../support/harness';
import { twoAccounts } from '../support/ledger-fixtures';

const run = promisify(execFile);
const root = resolve(__dirname, '../..');

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const fundedAccounts = (orm = h.orm, amount = 1_000n) => twoAccounts(orm, amount);

const balance = async (id: string) => (await h.orm.em.fork().findOneOrFail(LedgerAccount, { id }, { refresh: true })).balance;

describe('ledger postings', () => {
  test('concurrent withdrawals never overdraw a protected account', async () => {
    const { platformId, a, b } = await fundedAccounts();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        h.orm.em
          .fork()
          .transactional((tx) => postEntry(tx, { platformId, idempotencyKey: `w:${a}:${i}`, description: 'withdraw', lines: transfer(a, b, 'USD', 100n) })),
      ),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toBe(10);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof DomainError)).toBe(true);
    expect(await balance(a)).toBe(0n);
    expect(await balance(b)).toBe(1_000n);
  });

  test('opposite transfers between two accounts at once do not deadlock', async () => {
    const { platformId, a, b } = await fundedAccounts();
    await h.orm.em
      .fork()
      .transactional((tx) => postEntry(tx, { platformId, idempotencyKey: `seed-b:${b}`, description: 'seed', lines: transfer(a, b, 'USD', 500n) }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.orm.em.fork().transactional((tx) =>
          postEntry(tx, {
            platformId,
            idempotencyKey: `x:${a}:${i}`,
            description: 'swap',
            lines: i % 2 ? transfer(a, b, 'USD', 1n) : transfer(b, a, 'USD', 1n),
          }),
        ),
      ),
    );
    expect((await balance(a)) + (await balance(b))).toBe(1_000n);
    expect(await balance(a)).toBe(500n);
  });

  test('posting the same movement twice records it once', async () => {
    const { platformId, a, b } = await fundedAccounts();
    for (let i = 0; i < 3; i++) {
      await h.orm.em
        .fork()
        .transactional((tx) => postEntry(tx, { platformId, idempotencyKey: `once:${a}`, description: 'once', lines: transfer(a, b, 'USD', 250n) }));
    }
    expect(await balance(a)).toBe(750n);
  });

  test('an unbalanced entry is refused and changes nothing', async () => {
    const { platformId, a, b } = await fundedAccounts();
    await expect(
      h.orm.em.fork().transactional((tx) =>
        postEntry(tx, {
          platformId,
          idempotencyKey: `bad:${a}`,
          description: 'bad',
          lines: [
            { accountId: a, currency: 'USD', amount: -10n },
            { accountId: b, currency: 'USD', amount: 9n },
          ],
        }),
      ),
    ).rejects.toThrow(/UNBALANCED/);
    expect(await balance(a)).toBe(1_000n);
  });

  test("another platform's account cannot be posted to", async () => {
    const mine = await fundedAccounts();
    const theirs = await fundedAccounts();
    await expect(
      h.orm.em
        .fork()
        .transactional((tx) =>
          postEntry(tx, { platformId: mine.platformId, idempotencyKey: `steal:${theirs.a}`, description: 'x', lines: transfer(theirs.a, mine.a, 'USD', 1n) }),
        ),
    ).rejects.toThrow(/UNKNOWN_ACCOUNT/);
  });
});

describe('npm run ledger:audit', () => {
  test('passes on a healthy ledger and exits non-zero when a balance disagrees with its postings or an internal account with its ledger account', async () => {
    // A database of its own: tampering with the shared one would upset other tests' audits.
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = `audit_${Date.now()}`;
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const orm = await openOrm(url.toString(), { poolMax: 2 });
    try {
      await migrate(orm, url.toString());
      const { a, b } = await fundedAccounts(orm, 4_200n);
      const env = { ...process.env, DATABASE_URL: url.toString() };
      const cli = [resolve(root, 'node_modules/.bin/tsx'), [resolve(root, 'src/cli/audit-ledger.ts')]] as const;
      const healthy = await run(cli[0], [...cli[1]], { env });
      expect(healthy.stdout).toMatch(/0 findings/);

      await orm.em.getConnection().execute('update ledger_accounts set balance = balance + 1 where id = ?', [a]);
      const broken = await run(cli[0], [...cli[1]], { env }).then(
        () => null,
        (err: { code: number; stdout: string }) => err,
      );
      expect(broken?.code).toBe(1);
      expect(broken?.stdout).toContain(`BALANCE_MISMATCH ${a}`);

      // Internal accounts are audited too: one whose ledger account holds another currency is a break.
      await orm.em.getConnection().execute('update ledger_accounts set balance = balance - 1 where id = ?', [a]);
      await orm.em.getConnection().execute("update ledger_accounts set currency = 'EUR' where id = ?", [b]);
      const mismatched = await run(cli[0], [...cli[1]], { env }).then(
        () => null,
        (err: { code: number; stdout: string }) => err,
      );
      expect(mismatched?.code).toBe(1);
      expect(mismatched?.stdout).toContain(`LEDGER_MISMATCH ${b}`);
      expect(mismatched?.stdout).not.toContain('BALANCE_MISMATCH');
    } finally {
      await orm.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
