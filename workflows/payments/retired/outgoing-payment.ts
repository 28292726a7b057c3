// RETIRED since 5cc2062 (2026-11-26): started only as the child of a retired `quote` run (see
// retired/quote.ts for why both are kept and when they can be deleted). Kept honest by
// test/replay/replay.test.ts (test/histories/outgoingPayment/*.json) and the outgoingPayment cases of
// test/workflows/payments.mocked.test.ts. Its steps are the current payment's (runPayment).
import { QuoteIdKey, CustomerIdKey, TransactionIdKey } from '../../../src/temporal/search-attributes';
import type { OutgoingPaymentInput } from '../definitions';
import { runPayment } from '../run-payment';

/**
 * A payment started by a quote's workflow as its child (workflow id = transaction id): how every
 * payment ran before one workflow carried a payment from its quote to its end (see payment.ts).
 * Kept, unchanged in what it does, for the runs still in flight and for their histories.
 */
export async function outgoingPayment(input: OutgoingPaymentInput): Promise<string> {
  return runPayment({
    transactionId: input.transactionId,
    platformId: input.platformId,
    plan: input.plan,
    ...(input.pull ? { pull: input.pull } : {}),
    attributes: [
      { key: TransactionIdKey, value: input.transactionId },
      { key: QuoteIdKey, value: input.quoteId },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ],
    // Runs handed the execution's events deliver them with their first step's, in a local activity;
    // older runs deliver each step's through an activity.
    unannounced: input.announce ?? [],
    localDelivery: input.announce !== undefined,
  });
}
