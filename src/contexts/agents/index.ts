// The agents context's public face: no other context uses anything of it yet (its api/ stays private).
export {};
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { agentPolicy } from './gates/agent-policy';
export { agentActionDecider } from './deciders/agent-action-decider';
