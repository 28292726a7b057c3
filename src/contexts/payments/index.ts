// The payments context's public face: what other contexts may use of it (its api/ stays private: what it shares of its HTTP shapes lives in schemas/).
// The agents' mirrors of the transaction and quote reads answer with these views and schemas.
export { QuoteSchema } from './schemas/quote-schemas';
export { type TransactionListQuery, TransactionListQuerySchema, TransactionListSchema, TransactionOrCardSchema } from './schemas/transaction-schemas';
export { findCustomerTransactionView, findQuoteView, listCustomerTransactions, transactionViewsByIds } from './services/customer-transactions';
// The agents' quotes, executions and transfers go through the same machinery as the platform's.
export { Quote } from './entities';
export { QuoteRequestSchema } from './schemas/quote-schemas';
export { TransferInRequestSchema, TransferOutRequestSchema } from './schemas/transfer-schemas';
export { quoteView, type QuoteRequest } from './services/quotes';
export { createQuoteForRequest } from './services/quote-requests';
export { answerHold, executeQuoteForRequest, type ExecutionDeps } from './services/quote-execute';
export { decideHold } from './starters/payment';
export { executionRequestKey } from './domain/execution-attempts';
export { sameCurrencyTransfer, transferFieldProblems, transferInOf, transferOutOf, type SameCurrencyTransfer } from './services/same-currency-transfers';
export { valueIn } from './domain/pricing/value-in';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedChallenges } from './services/stranded-challenges';
export { strandedQuotes } from './services/stranded-quotes';
export { incomingPaymentApproval } from './deciders/incoming-payment-approval';
