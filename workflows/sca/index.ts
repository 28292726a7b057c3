// This context's workflows and their kinds (type name, task queue, versioning: ./definitions.ts).
export { scaChallenge } from './sca-challenge';
export { SCA_CHALLENGE_WORKFLOW } from './definitions';
