/** What an embedded wallet's owner signs to pay a quote: everything the payment moves, bound to the quote. */
export interface WalletPaymentTerms {
  quoteId: string;
  transactionId: string;
  /** The paying EMBEDDED_WALLET internal account. */
  walletAccountId: string;
  sendingCurrency: string;
  totalSendingAmount: bigint;
  receivingCurrency: string;
  totalReceivingAmount: bigint;
  /** The destination as the quote stores it (an account id, or a UMA address). */
  destination: string;
  createdAt: Date;
}

export const WALLET_PAYMENT_ACTIVITY = 'ACTIVITY_TYPE_EXECUTE_QUOTE';

/**
 * The quote's `payloadToSign` (its EMBEDDED_WALLET payment instruction): an activity in the shape
 * the reference's signing payloads have (organizationId, parameters, timestampMs, type), built
 * once when the quote is made and stored, so the bytes the wallet signs never change. The amounts
 * and the payee are in it, so a stamp over it authorises this payment and no other.
 */
export function walletPaymentPayload(terms: WalletPaymentTerms): string {
  return JSON.stringify({
    organizationId: terms.walletAccountId,
    parameters: {
      quoteId: terms.quoteId,
      transactionId: terms.transactionId,
      sendingCurrency: terms.sendingCurrency,
      totalSendingAmount: terms.totalSendingAmount.toString(),
      receivingCurrency: terms.receivingCurrency,
      totalReceivingAmount: terms.totalReceivingAmount.toString(),
      destination: terms.destination,
    },
    timestampMs: String(terms.createdAt.getTime()),
    type: WALLET_PAYMENT_ACTIVITY,
  });
}
