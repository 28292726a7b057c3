// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { customerVerification } from './customer-verification';
export { bulkCustomerImport } from './bulk-customer-import';
export { CUSTOMER_VERIFICATION_WORKFLOW, BULK_CUSTOMER_IMPORT_WORKFLOW } from './definitions';
