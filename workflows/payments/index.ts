// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { incomingPayment } from './incoming-payment';
export { payment } from './payment';
// Retired types, bundled only for runs that may still be open (see retired/quote.ts: when they go).
export { quote } from './retired/quote';
export { outgoingPayment } from './retired/outgoing-payment';
export { INCOMING_PAYMENT_WORKFLOW, QUOTE_WORKFLOW, OUTGOING_PAYMENT_WORKFLOW, PAYMENT_WORKFLOW } from './definitions';
