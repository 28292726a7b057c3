// The stablecoins context's public face: no other context uses anything of it (its api/ stays private).
export {};
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedIssuances, strandedStablecoinOperations } from './services/stranded-stablecoin-work';
export { stablecoinLedgerAudit } from './services/stablecoin-ledger-audit';
