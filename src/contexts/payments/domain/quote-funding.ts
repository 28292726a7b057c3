import { DomainError } from '../../../domain/errors';

/**
 * Only a REALTIME_FUNDING quote is paid by money sent to it (a deposit quoting its reference; in
 * the sandbox POST /sandbox/send). Judged before the quote's state, so that funds "sent" to an
 * account-funded quote are refused alike whether it is pending or executed already, and never
 * answered as a payment.
 */
export function assertPaidBySendingFunds(quote: { source: Record<string, unknown> }): void {
  if (quote.source.sourceType !== 'REALTIME_FUNDING')
    throw new DomainError('CONFLICT', 'Only a REALTIME_FUNDING quote is paid by sending funds; execute this one');
}
