// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { externalAccountVerification } from './external-account-verification';
export { EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW } from './definitions';
