export { ExternalAccount } from './ExternalAccount';
