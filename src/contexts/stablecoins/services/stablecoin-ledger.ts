/**
 * The ledger accounts of one stablecoin, in its base currency's minor unit: RESERVE is the fiat
 * the provider holds behind the token, SUPPLY (negative) what is outstanding (see
 * domain/operation-rules operationLines; the audit checks both against the completed operations).
 */
export const reserveAccountId = (platformId: string, stablecoinId: string) => `Ledger:${platformId}:STABLECOIN_RESERVE:${stablecoinId}`;
export const supplyAccountId = (platformId: string, stablecoinId: string) => `Ledger:${platformId}:STABLECOIN_SUPPLY:${stablecoinId}`;
