export { customerVerification } from './customer-verification';
