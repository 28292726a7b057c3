import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { DomainError } from '../../../domain/errors';
import { answerHold, decideHold, type ExecutionDeps } from '../../payments';
import { AGENT_POLICY_GATE, type AgentDecision } from '../domain/agent-approvals';
import { failureReasonOf, type PolicyRule } from '../domain/policy-evaluation';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { isDecidable, type AgentActionStatus } from '../domain/agent-actions';
import { AgentAction } from '../entities';
import { actionViews } from './agent-views';

export interface ActionListQuery {
  limit: number;
  cursor?: string;
  sortOrder?: SortOrder;
  agentId?: string;
  customerId?: string;
  status?: AgentActionStatus;
  approvalRequired?: boolean;
  startDate?: string;
  endDate?: string;
}

export async function listActions(em: EntityManager, platformId: string, query: ActionListQuery) {
  const where: FilterQuery<AgentAction>[] = [{ platformId }];
  if (query.agentId) where.push({ agentId: query.agentId });
  if (query.customerId) where.push({ customerId: query.customerId });
  if (query.status) where.push({ status: query.status });
  if (query.approvalRequired) where.push({ approvalRequired: true });
  if (query.startDate) where.push({ createdAt: { $gte: new Date(query.startDate) } });
  if (query.endDate) where.push({ createdAt: { $lte: new Date(query.endDate) } });
  return listPage(em, AgentAction, { $and: where }, query, (rows) => actionViews(em, rows));
}

/** One action of the agent (of the platform); any other is not found, as an unknown id is. */
export async function findAction(em: EntityManager, platformId: string, agentId: string, actionId: string): Promise<AgentAction> {
  const action = await em.findOne(AgentAction, { id: actionId, agentId, platformId });
  if (!action) throw DomainError.notFound('Agent action');
  return action;
}

/** 409: only an action PENDING_APPROVAL (and not decided the other way already) is the platform's to decide (spec §7). */
function notPending(action: AgentAction): DomainError {
  return new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', `The action is ${action.status}, not PENDING_APPROVAL`, {
    status: action.status,
    ...(action.decision && action.status === 'PENDING_APPROVAL' ? { decision: action.decision } : {}),
  });
}

/** Refusals of an execution that are failure reasons of the reference's as they are. */
const FAILURE_REASON_CODES = new Set(['QUOTE_EXPIRED', 'QUOTE_RATE_UNAVAILABLE']);

/** The transaction's failureReason of an approval the re-evaluation refused: by the policy's rule, else by the refusal's code. */
function failureReasonFor(refusal: DomainError): string {
  const rule = refusal.details?.rule;
  if (typeof rule === 'string') return failureReasonOf(rule as PolicyRule);
  return FAILURE_REASON_CODES.has(refusal.code) ? refusal.code : 'QUOTE_EXECUTION_FAILED';
}

export interface ActionDecision {
  decision: AgentDecision;
  /** A rejection's reason, kept on the action (rejectionReason). */
  reason?: string;
}

/**
 * The platform decides a pending action. The decision is claimed on the action's row first (one
 * statement: PENDING_APPROVAL and undecided, or decided this same way by a retry), so an approval
 * and a rejection cannot both reach the payment; then it is sent to the payment's workflow with
 * an id made of the action and the decision, so concurrent or retried requests are one decision.
 * Approved, the workflow runs the execution again and the policy gate judges it anew: the action
 * is APPROVED once the funds are held. Refused then (paused, a limit now reached, the quote
 * expired, the funds gone), the payment is ended FAILED with that reason and the action FAILED.
 * Rejected, the payment FAILS and the action is REJECTED with the reason. Answered with the
 * action as the decision leaves it.
 */
export async function decideAgentAction(em: EntityManager, temporal: Client, action: AgentAction, request: ActionDecision) {
  if (!isDecidable(action.status)) throw notPending(action);
  const claimed = await em.nativeUpdate(AgentAction, { id: action.id, status: 'PENDING_APPROVAL', decision: null }, { decision: request.decision });
  if (claimed === 0) {
    const now = await em.fork().findOneOrFail(AgentAction, { id: action.id });
    if (now.status !== 'PENDING_APPROVAL' || now.decision !== request.decision) throw notPending(now);
  }
  const transactionId = action.transactionId!;
  const decisionId = `${action.id}:${request.decision}`;
  if (request.decision === 'REJECT') {
    await decideHold(temporal, transactionId, {
      gate: AGENT_POLICY_GATE,
      decision: 'REJECT',
      decisionId,
      ...(request.reason ? { reason: request.reason } : {}),
    });
    return decidedView(em, action.id, { status: 'REJECTED', ...(request.reason ? { rejectionReason: request.reason } : {}) });
  }
  try {
    await decideHold(temporal, transactionId, { gate: AGENT_POLICY_GATE, decision: 'APPROVE', decisionId });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // Not held by the policy any more (it expired meanwhile): answered as the action now is.
    if (err.code === 'CONFLICT') throw notPending(await em.fork().findOneOrFail(AgentAction, { id: action.id }));
    await decideHold(temporal, transactionId, {
      gate: AGENT_POLICY_GATE,
      decision: 'REJECT',
      decisionId: `${action.id}:APPROVE-REFUSED`,
      failed: true,
      failureReason: failureReasonFor(err),
      reason: err.reason,
    });
    return decidedView(em, action.id, { status: 'FAILED' });
  }
  return decidedView(em, action.id);
}

/**
 * The action read afresh. A rejection is accepted by the workflow before it ends the payment (the
 * gate then records the action's new status): until then the answer shows the decided status.
 */
async function decidedView(em: EntityManager, actionId: string, decided?: { status: AgentActionStatus; rejectionReason?: string }) {
  const fresh = em.fork();
  const action = await fresh.findOneOrFail(AgentAction, { id: actionId });
  if (decided && action.status === 'PENDING_APPROVAL') Object.assign(action, decided);
  return (await actionViews(fresh, [action]))[0]!;
}

/** The action a pending transaction waits on (POST /transactions/{id}/approve|reject), if an agent's action holds it. */
export async function pendingActionOf(em: EntityManager, platformId: string, transactionId: string): Promise<AgentAction | null> {
  return em.findOne(AgentAction, { transactionId, platformId, status: 'PENDING_APPROVAL' });
}

/**
 * POST /agents/{agentId}/actions/{actionId}/approve: the platform's approval (decideAgentAction).
 * Approved, the SCA gate may hold the payment for its customer: the customer's challenge is issued
 * now (the payments context's one answer to a gate's hold).
 */
export async function approveAgentAction(em: EntityManager, deps: ExecutionDeps, action: AgentAction) {
  const decided = await decideAgentAction(em, deps.temporal, action, { decision: 'APPROVE' });
  if (action.quoteId) await answerHold(em, deps, action.quoteId);
  return decided;
}
