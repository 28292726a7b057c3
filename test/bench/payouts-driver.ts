import type { Stack } from './stack';

/** Payouts through HTTP as a platform makes them: quote, execute, then the OUTGOING_PAYMENT.COMPLETED webhook. */
export interface PayoutDriver {
  /** One payout, resolved once its COMPLETED webhook arrived. */
  payoutIds: (i: number) => Promise<{ quoteId: string; transactionId: string }>;
  /** The same, resolving with the quote's id (the load shapes' id). */
  payout: (i: number) => Promise<string>;
  /** A quote only (its workflow started, waiting for its execution). */
  quoteIds: (i: number) => Promise<{ quoteId: string; transactionId: string }>;
  quoteOnly: (i: number) => Promise<string>;
  /** Stops reading the receiver. */
  stop: () => void;
}

/**
 * Funds each of `accounts` (the bench's customers' USD accounts) with plenty, gives its customer a EUR bank
 * account, and pays out from account i % accounts.length to its bank account. Reads the stack's receiver for
 * the COMPLETED webhooks from then on.
 */
export async function payoutDriver(stack: Stack, accounts: string[]): Promise<PayoutDriver> {
  const { call, receiver } = stack;
  const banks: string[] = [];
  const owners = (await call('GET', `/customers/internal-accounts?limit=100&currency=USD`)) as { data: { id: string; customerId: string }[] };
  for (const account of accounts) {
    await call('POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 100_000_000 });
    const customerId = owners.data.find((a) => a.id === account)!.customerId;
    const bank = await call('POST', '/customers/external-accounts', {
      customerId,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Customer', countryOfResidence: 'DE' },
      },
    });
    banks.push(String(bank.id));
  }
  const quoteFor = (i: number) =>
    call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: accounts[i % accounts.length] },
      destination: { destinationType: 'ACCOUNT', accountId: banks[i % accounts.length] },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
  const completed = new Set<string>();
  const waiters = new Map<string, () => void>();
  const seen = setInterval(() => {
    for (const hook of receiver.received.splice(0)) {
      if (hook.body.type !== 'OUTGOING_PAYMENT.COMPLETED') continue;
      const id = String(hook.body.data.id);
      completed.add(id);
      waiters.get(id)?.();
    }
  }, 5);
  const payoutIds = async (i: number) => {
    const quote = await quoteFor(i);
    const transactionId = String(quote.transactionId);
    const done = new Promise<void>((resolve) => (completed.has(transactionId) ? resolve() : waiters.set(transactionId, resolve)));
    await call('POST', `/quotes/${String(quote.id)}/execute`);
    await done;
    waiters.delete(transactionId);
    return { quoteId: String(quote.id), transactionId };
  };
  const quoteIds = async (i: number) => {
    const quote = await quoteFor(i);
    return { quoteId: String(quote.id), transactionId: String(quote.transactionId) };
  };
  return {
    payoutIds,
    payout: async (i) => (await payoutIds(i)).quoteId,
    quoteIds,
    quoteOnly: async (i) => (await quoteIds(i)).quoteId,
    stop: () => clearInterval(seen),
  };
}
