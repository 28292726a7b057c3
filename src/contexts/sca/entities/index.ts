// The sca context's entities.
export * from './ScaChallenge';
export * from './ScaCodeSend';
export * from './ScaFactor';
export * from './ScaFactorReset';
export * from './ScaSecurityState';
export * from './ScaSession';
