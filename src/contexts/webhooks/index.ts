// The webhooks context's public face: what other contexts may use of it (its api/ stays private).
export { WebhookDeliveryAttempt, WebhookEvent, type WebhookDeliveryState } from './entities';
export { webhookEndpointErrors } from './services/webhook-destinations';
export { sendTestWebhook } from './services/webhook-test';
export { recordWebhookEvent, recordWebhookEvents } from './services/webhooks';
