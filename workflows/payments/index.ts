export { incomingPayment } from './incoming-payment';
export { payment } from './payment';
// Retired types, bundled only for runs that may still be open (see retired/quote.ts: when they go).
export { quote } from './retired/quote';
export { outgoingPayment } from './retired/outgoing-payment';
