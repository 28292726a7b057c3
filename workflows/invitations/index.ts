// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { invitationLifecycle } from './invitation-lifecycle';
export { INVITATION_LIFECYCLE_WORKFLOW } from './definitions';
