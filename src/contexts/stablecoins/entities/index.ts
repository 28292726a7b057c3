// The stablecoins context's entities.
export * from './StablecoinProviderAccount';
export * from './Stablecoin';
export * from './StablecoinOperation';
export * from './StablecoinAccountLink';
