export { incomingPayment } from './incoming-payment';
export { quote } from './quote';
export { outgoingPayment } from './outgoing-payment';
export { payment } from './payment';
