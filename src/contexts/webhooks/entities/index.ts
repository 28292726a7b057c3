// The webhooks context's entities.
export * from './WebhookDeliveryAttempt';
export * from './WebhookEvent';
