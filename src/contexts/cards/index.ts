// The cards context's public face: what other contexts may use of it (its api/ stays private).
export { CardTransaction } from './entities';
export { CardTransactionSchema } from './schemas/card-schemas';
export { cardTransactionViews, findCardTransactionView } from './services/card-transactions';
