/** The execution gate that judges an agent's payment by its policy and holds it for the platform's approval. */
export const AGENT_POLICY_GATE = 'agent-policy';

/**
 * How long an action waits for the platform's decision before its payment expires (and the
 * action FAILS): a day, long enough for a person to review it, short enough that a stale
 * approval cannot move money the agent asked for long ago.
 */
export const AGENT_APPROVAL_HOLD_SECONDS = 24 * 60 * 60;

export type AgentDecision = 'APPROVE' | 'REJECT';
