// The webhooks context's public face: what other contexts may use of it (its api/ stays private).
export { WebhookDeliveryAttempt, WebhookEvent, type WebhookDeliveryState } from './entities';
export { webhookEndpointErrors } from './services/webhook-destinations';
export { sendTestWebhook } from './services/webhook-test';
export { startWebhookDelivery } from './starters/webhook-delivery';
export { recordWebhookEvent, recordWebhookEvents } from './services/webhooks';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedDeliveries } from './services/stranded-deliveries';
