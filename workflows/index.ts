// Every workflow type the worker runs; this file is the bundle entry point.
export { incomingPayment } from './incoming-payment';
export { webhookDelivery } from './webhook-delivery';
export { customerVerification } from './customer-verification';
