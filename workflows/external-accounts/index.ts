export { externalAccountVerification } from './external-account-verification';
