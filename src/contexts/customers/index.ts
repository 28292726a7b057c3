// The customers context's public face: what other contexts may use of it (its api/ stays private).
export { isUmaAddress, MAX_UMA_ADDRESS } from './domain/customer-rules';
export { Customer } from './entities';
export { AddressSchema } from './schemas/customer-requests';
export { applyContactVerificationRules } from './services/contact-verification';
export { assertCustomerMayMoveMoney } from './services/money-movement-policy';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedBulkImports } from './services/stranded-bulk-imports';
export { customerMayMoveMoney } from './gates/money-movement';
