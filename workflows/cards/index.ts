// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { cardLifecycle } from './card-lifecycle';
export { CARD_LIFECYCLE_WORKFLOW } from './definitions';
