import { PASS, type ExecutionGate } from '../../../domain/execution-gate-contract';
import { AGENT_APPROVAL_HOLD_SECONDS, AGENT_POLICY_GATE } from '../domain/agent-approvals';
import { actionEnded, judgeAgentExecution } from '../services/agent-execution';

/**
 * An agent's payment is the agent's action, judged by its policy inside the execution's database
 * transaction (the agent's row locked, so two executions cannot both fit under one limit): it is
 * refused (403, the rule in details), passes (the action APPROVED), or is held, the payment left
 * PENDING, until the platform approves or rejects the action (PENDING_APPROVAL) or the hold
 * expires. An approval runs it again with `approved`: the policy is judged anew. A payment no
 * agent made costs nothing here: no statement is run for it.
 */
export function agentPolicyGate(options: { holdSeconds?: number } = {}): ExecutionGate {
  const holdSeconds = options.holdSeconds ?? AGENT_APPROVAL_HOLD_SECONDS;
  return {
    name: AGENT_POLICY_GATE,
    async check(em, subject, { approved }) {
      if (!subject.agentId) return PASS;
      return judgeAgentExecution(em, subject, { approved, holdSeconds });
    },
    holdEnded: (em, ended) => actionEnded(em, ended),
  };
}

export const agentPolicy = agentPolicyGate();
