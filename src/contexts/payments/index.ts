// The payments context's public face: what other contexts may use of it (its api/ stays private).
// The agents' mirrors of the transaction and quote reads answer with these views and schemas.
export { QuoteSchema } from './api/quote-schemas';
export { type TransactionListQuery, TransactionListQuerySchema, TransactionListSchema, TransactionOrCardSchema } from './api/schemas';
export { findCustomerTransactionView, findQuoteView, listCustomerTransactions, transactionViewsByIds } from './services/customer-transactions';
