// The platforms context's entities.
export * from './ApiToken';
export * from './Platform';
export * from './WebhookSigningKey';
