export { stablecoinIssuance } from './stablecoin-issuance';
export { stablecoinOperation } from './stablecoin-operation';
