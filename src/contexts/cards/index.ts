// The cards context's public face: what other contexts may use of it (its api/ stays private).
export { CardTransaction } from './entities';
export { CardTransactionSchema } from './schemas/card-schemas';
export { cardTransactionViews, findCardTransactionView } from './services/card-transactions';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedCards } from './services/stranded-cards';
export { cardLedgerAudit } from './services/card-ledger-audit';
