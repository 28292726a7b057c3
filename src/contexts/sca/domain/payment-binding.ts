import { createHash } from 'node:crypto';

export interface LinkedPayment {
  quoteId: string;
  purpose: string;
  currency: string;
  amount: bigint;
  /** The payee: the destination account or UMA address the money goes to. */
  payee: string;
}

/**
 * The dynamic link of a challenge: a digest of the quote, the purpose, the amount and the payee.
 * It is the challenge's binding (a passkey's WebAuthn challenge covers it), and the proof is
 * checked against the link of the payment as it is when the proof arrives.
 */
export function paymentBinding(link: LinkedPayment): string {
  const digest = createHash('sha256').update([link.quoteId, link.purpose, link.currency, link.amount.toString(), link.payee].join('\n')).digest('base64url');
  return `payment:${digest}`;
}

/** Human text of what a code authorizes (the SMS text carries amount and payee). */
export function paymentContext(link: LinkedPayment, amountText: string): string {
  return `${link.purpose === 'FX_CONVERSION' ? 'Convert' : 'Pay'} ${amountText} ${link.currency} to ${link.payee}`;
}
