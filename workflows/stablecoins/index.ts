// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { stablecoinIssuance } from './stablecoin-issuance';
export { stablecoinOperation } from './stablecoin-operation';
export { STABLECOIN_ISSUANCE_WORKFLOW, STABLECOIN_OPERATION_WORKFLOW } from './definitions';
