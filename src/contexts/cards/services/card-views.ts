import { currencyView } from '../../../domain/currencies';
import type { Card, CardTransaction } from '../entities';
import type { CardPulls } from './card-ledger';

/** The API's Card. PAN and CVV are never part of it (only last4), nor the reveal URL. */
export function cardView(card: Card) {
  return {
    id: card.id,
    cardholderId: card.cardholderId,
    platformCardId: card.platformCardId,
    state: card.state,
    stateReason: card.stateReason ?? null,
    ...(card.brand ? { brand: card.brand } : {}),
    form: card.form,
    ...(card.last4 ? { last4: card.last4 } : {}),
    ...(card.expMonth ? { expMonth: card.expMonth } : {}),
    ...(card.expYear ? { expYear: card.expYear } : {}),
    fundingSources: [...card.fundingSources],
    maxSpendPerTransaction: card.maxSpendPerTransaction ?? null,
    currency: card.currency,
    ...(card.processorRef ? { processorRef: card.processorRef } : {}),
    ...(card.issuerRef ? { issuerRef: card.issuerRef } : {}),
    createdAt: card.createdAt.toISOString(),
    updatedAt: card.updatedAt.toISOString(),
  };
}

export type CardView = ReturnType<typeof cardView>;

/** The API's CardTransaction (a `type: CARD` member of the transactions list); `pulls` as the ledger shows them (cardPulls). */
export function cardTransactionView(t: CardTransaction, platformCustomerId: string, pulls: CardPulls) {
  const amount = (value: bigint) => ({ amount: value, currency: currencyView(t.currency) });
  return {
    type: 'CARD' as const,
    id: t.id,
    cardId: t.cardId,
    customerId: t.customerId,
    platformCustomerId,
    issuerTransactionToken: t.issuerTransactionToken,
    status: t.status,
    direction: t.direction,
    merchant: t.merchant,
    authorizedAmount: amount(t.authorizedAmount),
    settledAmount: amount(t.settledAmount),
    refundedAmount: amount(t.refundedAmount),
    accountId: t.accountId,
    pullSummary: { count: pulls.count, totalAmount: pulls.totalAmount, pendingCount: t.pendingPulls },
    refundSummary: { count: t.refundCount, totalAmount: t.refundedAmount },
    settlementSummary: { count: t.settlementCount, totalAmount: t.settledAmount },
    authorizedAt: t.authorizedAt.toISOString(),
    lastEventAt: t.lastEventAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
