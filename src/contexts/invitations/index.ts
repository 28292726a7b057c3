// The invitations context's public face: no other context uses anything of it (its api/ stays private).
export {};
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedInvitations } from './services/stranded-invitations';
