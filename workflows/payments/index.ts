export { incomingPayment } from './incoming-payment';
