// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { webhookDelivery } from './webhook-delivery';
export { WEBHOOK_DELIVERY_WORKFLOW } from './definitions';
