export { customerVerification } from './customer-verification';
export { bulkCustomerImport } from './bulk-customer-import';
