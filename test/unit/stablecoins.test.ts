import { DomainError } from '../../src/domain/errors';
import { auditStablecoinLedger } from '../../src/contexts/stablecoins/domain/stablecoin-audit';
import { parseOperationAmount, tokenAmountInCents } from '../../src/contexts/stablecoins/domain/stablecoin-amounts';
import { assertBurnWithinSupply, operationLines } from '../../src/contexts/stablecoins/domain/operation-rules';
import { SANDBOX_SCENARIOS, sandboxProvider } from '../../src/contexts/stablecoins/domain/sandbox-provider';
import { GRID_OPERATIONS_STATUSES, operatorGridMove, operatorLinkMove, requestGridEnablement } from '../../src/contexts/stablecoins/domain/stablecoin-states';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
  return undefined;
};

describe('grid enablement (spec §3)', () => {
  test('the platform may ask only from NOT_ENABLED; asking again while PENDING_APPROVAL changes nothing; every other state is refused', () => {
    expect(requestGridEnablement('NOT_ENABLED')).toEqual({ next: 'PENDING_APPROVAL', changed: true });
    expect(requestGridEnablement('PENDING_APPROVAL')).toEqual({ next: 'PENDING_APPROVAL', changed: false });
    for (const status of ['ENABLING', 'ENABLED', 'DISABLED'] as const)
      expect(codeOf(() => requestGridEnablement(status))).toBe('STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE');
  });

  test("the operator's moves, and nothing else", () => {
    const allowed = new Set([
      'PENDING_APPROVAL>ENABLING',
      'PENDING_APPROVAL>NOT_ENABLED',
      'ENABLING>ENABLED',
      'ENABLING>NOT_ENABLED',
      'ENABLED>DISABLED',
      'DISABLED>ENABLED',
    ]);
    for (const from of GRID_OPERATIONS_STATUSES) {
      for (const to of GRID_OPERATIONS_STATUSES) {
        const code = codeOf(() => operatorGridMove(from, to));
        expect([`${from}>${to}`, code]).toEqual([`${from}>${to}`, allowed.has(`${from}>${to}`) ? undefined : 'INVALID_STATE_TRANSITION']);
      }
    }
  });

  test('a link may go INVALID and back, and REVOKED for good', () => {
    expect(operatorLinkMove('ACTIVE', 'INVALID')).toBe('INVALID');
    expect(operatorLinkMove('INVALID', 'ACTIVE')).toBe('ACTIVE');
    expect(operatorLinkMove('INVALID', 'REVOKED')).toBe('REVOKED');
    expect(codeOf(() => operatorLinkMove('REVOKED', 'ACTIVE'))).toBe('INVALID_STATE_TRANSITION');
    expect(codeOf(() => operatorLinkMove('ACTIVE', 'ACTIVE'))).toBe('INVALID_STATE_TRANSITION');
  });
});

describe('token amounts', () => {
  test('a whole cent converts exactly, whatever the decimals; a fraction of a cent is refused, never rounded', () => {
    expect(tokenAmountInCents(1_000_000n, 6)).toBe(100n);
    expect(tokenAmountInCents(10_000n, 6)).toBe(1n);
    expect(codeOf(() => tokenAmountInCents(1_005_000n, 6))).toBe('STABLECOIN_AMOUNT_NOT_REPRESENTABLE');
    expect(codeOf(() => tokenAmountInCents(1n, 3))).toBe('STABLECOIN_AMOUNT_NOT_REPRESENTABLE');
    expect(tokenAmountInCents(1234n, 2)).toBe(1234n);
    expect(tokenAmountInCents(7n, 0)).toBe(700n);
    expect(tokenAmountInCents(10n ** 18n, 18)).toBe(100n);
  });

  test('zero and amounts beyond what the ledger holds are invalid input', () => {
    expect(codeOf(() => parseOperationAmount('0', 6))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseOperationAmount('9'.repeat(40), 0))).toBe('INVALID_INPUT');
    expect(parseOperationAmount('000120000', 6)).toEqual({ units: 120_000n, cents: 12n });
  });
});

describe('the ledger side', () => {
  test('a mint raises reserve and supply together, a burn lowers them: balanced either way', () => {
    for (const type of ['MINT', 'BURN'] as const) {
      const lines = operationLines(type, 'R', 'S', 'USD', 250n);
      expect(lines.reduce((sum, l) => sum + l.amount, 0n)).toBe(0n);
      expect(lines.find((l) => l.accountId === 'R')!.amount).toBe(type === 'MINT' ? 250n : -250n);
    }
  });

  test('a burn takes at most the supply not already claimed by burns under way', () => {
    expect(codeOf(() => assertBurnWithinSupply(300n, 500n, 200n, 'USD'))).toBeUndefined();
    expect(codeOf(() => assertBurnWithinSupply(301n, 500n, 200n, 'USD'))).toBe('INSUFFICIENT_FUNDS');
    expect(codeOf(() => assertBurnWithinSupply(1n, 0n, 0n, 'USD'))).toBe('INSUFFICIENT_FUNDS');
  });

  test('the audit finds a reserve or supply that its completed operations do not explain, and a negative reserve', () => {
    const ids = { reserveAccountId: (p: string, c: string) => `R:${p}:${c}`, supplyAccountId: (p: string, c: string) => `S:${p}:${c}` };
    const coins = [{ platformId: 'P', stablecoinId: 'C', completedNet: 500n }];
    expect(
      auditStablecoinLedger({
        coins,
        balances: new Map([
          ['R:P:C', 500n],
          ['S:P:C', -500n],
        ]),
        ...ids,
      }),
    ).toEqual([]);
    expect(
      auditStablecoinLedger({
        coins,
        balances: new Map([
          ['R:P:C', 400n],
          ['S:P:C', -500n],
        ]),
        ...ids,
      }).map((f) => f.kind),
    ).toEqual(['STABLECOIN_RESERVE_MISMATCH']);
    expect(
      auditStablecoinLedger({
        coins,
        balances: new Map([
          ['R:P:C', 500n],
          ['S:P:C', 0n],
        ]),
        ...ids,
      }).map((f) => f.kind),
    ).toEqual(['STABLECOIN_SUPPLY_MISMATCH']);
    const overdrawn = [{ platformId: 'P', stablecoinId: 'C', completedNet: -10n }];
    expect(
      auditStablecoinLedger({
        coins: overdrawn,
        balances: new Map([
          ['R:P:C', -10n],
          ['S:P:C', 10n],
        ]),
        ...ids,
      }).map((f) => f.kind),
    ).toEqual(['STABLECOIN_RESERVE_MISMATCH']);
  });
});

describe('the sandbox provider', () => {
  const creds = { apiClientId: 'client', apiClientSecret: 'secret' };

  test('its answers follow from what it is asked: the same question, the same answer', async () => {
    const [account] = await sandboxProvider.accounts(creds);
    expect(await sandboxProvider.accounts(creds)).toEqual([account]);
    expect(await sandboxProvider.accounts({ ...creds, apiClientId: `${SANDBOX_SCENARIOS.multiAccountClientPrefix}-x` })).toHaveLength(2);
    await expect(sandboxProvider.accounts({ ...creds, apiClientSecret: 'invalid-x' })).rejects.toMatchObject({ kind: 'AUTHENTICATION' });
    expect(await sandboxProvider.token(creds, account!, 'ACME_D2_X')).toEqual({ name: 'ACME Dollar', symbol: 'ACME', decimals: 2, baseCurrency: 'USD' });
    expect((await sandboxProvider.token(creds, account!, 'PINNEDX')).networkTokenIdentifier).toBe('btkn1pinnedx');
    await expect(sandboxProvider.token(creds, 'brale_someone_else', 'ACME')).rejects.toMatchObject({ kind: 'AUTHENTICATION' });
  });

  test('bank account links by the account number suffix; orders by their value', async () => {
    const [account] = await sandboxProvider.accounts(creds);
    const linkOf = async (identifier: string) => (await sandboxProvider.linkAddress(creds, account!, { kind: 'BANK_ACCOUNT', identifier })).status;
    expect(await Promise.all(['900000201', '900000202', '900000203', '900000204'].map(linkOf))).toEqual([
      'REFUSED',
      'PENDING',
      'MANUAL_LINK_REQUIRED',
      'LINKED',
    ]);
    const order = {
      operationId: 'StablecoinOperation:1',
      type: 'MINT' as const,
      valueType: 'ACME',
      units: 0n,
      source: { type: 'WIRE' as const },
      destinationAddressId: null,
    };
    await expect(sandboxProvider.submitOrder(creds, account!, { ...order, cents: SANDBOX_SCENARIOS.refusedOrderCents })).rejects.toMatchObject({
      kind: 'REFUSED',
    });
    expect((await sandboxProvider.submitOrder(creds, account!, { ...order, cents: 100n })).fundingInstructions).toMatchObject({
      rail: 'WIRE',
      valueType: 'ACME',
    });
    expect(await sandboxProvider.orderOutcome(creds, account!, { ...order, cents: SANDBOX_SCENARIOS.failingOrderCents })).toEqual({
      providerStatus: 'failed',
      completed: false,
    });
  });
});
