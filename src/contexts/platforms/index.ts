// The platforms context's public face: what other contexts may use of it (its api/ stays private;
// routes are found by src/contexts/discover.ts).
export { type Caller } from './services/caller';
export { type FeeConfig, isActiveFeeConfig, mergeFeeConfigs, unsupportedFeeSourceCurrencies } from './domain/fee-configs';
export { isOnOwnUmaDomain, isOnPlatformDomain, isUmaDomain, MAX_UMA_DOMAIN, umaDomainOf } from './domain/uma-domains';
export { type Environment, Platform, type Region } from './entities';
export { platformConfigView } from './services/platform-config-views';
export { defaultCurrencyConfig, insertPlatform, type NewPlatform } from './services/platforms';
export { ensureSigningKeys, MAX_ROTATION_OVERLAP_SECONDS, platformSigningKeys, rotateSigningKey } from './services/signing-keys';
export { lockedUmaDomainOf, reservedUmaDomainProblems, setUmaDomain } from './services/uma-domain-assignment';
