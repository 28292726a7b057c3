/** The reference's AgentActionStatus and AgentActionType. */
export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];

export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

/** Only a pending action is the platform's to decide; every other status is final. */
export function isDecidable(status: AgentActionStatus): boolean {
  return status === 'PENDING_APPROVAL';
}

/**
 * The actions that count against the agent's limits: submitted and not refused. A pending action
 * counts, so that actions waiting for approval cannot together exceed a limit.
 */
export const COUNTED_ACTION_STATUSES: readonly AgentActionStatus[] = ['PENDING_APPROVAL', 'APPROVED'];

/** The reference's AgentTransferDetails, as stored (the amount as a decimal string: no float on the way). */
export interface AgentTransferDetails {
  amount: string;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/** The agent-action webhook of a status (the reference names AGENT_ACTION.PENDING_APPROVAL; the others follow its pattern). */
export function actionWebhookType(status: AgentActionStatus): string {
  return `AGENT_ACTION.${status}`;
}
