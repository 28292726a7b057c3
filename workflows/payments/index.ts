export { incomingPayment } from './incoming-payment';
export { quote } from './quote';
export { outgoingPayment } from './outgoing-payment';
