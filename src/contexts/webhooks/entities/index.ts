// The webhooks context's entities.
export * from './WebhookEvent';
