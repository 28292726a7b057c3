// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { incomingPayment } from './incoming-payment';
export { quote } from './quote';
export { outgoingPayment } from './outgoing-payment';
export { payment } from './payment';
export { INCOMING_PAYMENT_WORKFLOW, QUOTE_WORKFLOW, OUTGOING_PAYMENT_WORKFLOW, PAYMENT_WORKFLOW } from './definitions';
