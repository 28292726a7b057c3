// The wallet-auth context's entities.
export * from './AuthCredential';
export * from './AuthSession';
export * from './SignedRequest';
