export { webhookDelivery } from './webhook-delivery';
