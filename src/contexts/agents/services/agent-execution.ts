import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Quote, valueIn } from '../../payments';
import { recordWebhookEvent } from '../../webhooks';
import { DomainError } from '../../../domain/errors';
import { PASS, type ExecutionSubject, type GateEvent, type GateVerdict, type HoldEnding } from '../../../domain/execution-gate-contract';
import { AGENT_POLICY_GATE } from '../domain/agent-approvals';
import { actionWebhookType, type AgentActionStatus, type AgentActionType } from '../domain/agent-actions';
import { policyOf } from '../domain/agent-policy';
import { needsApproval, policyRefusal } from '../domain/policy-evaluation';
import { Agent, AgentAction, AgentQuote } from '../entities';
import { usageOf } from './agent-usage';
import { actionViews } from './agent-views';

/**
 * An amount in another currency, at the service's mid rate rounded down (the rule quotes' EU
 * thresholds use): limits are written in the policy's currency, the payment is in its own.
 */
function converted(target: string, currency: string, amount: bigint): bigint {
  const value = valueIn(target, currency, amount);
  if (value === undefined) {
    throw new DomainError('QUOTE_RATE_UNAVAILABLE', `No ${currency} to ${target} rate to judge the agent's limits by`, {
      sendingCurrency: currency,
      receivingCurrency: target,
    });
  }
  return value;
}

/**
 * The policy's verdict on an agent's payment, in the execution's database transaction. The
 * agent's row is locked first, so the usage it counts (the agent's other counted actions) cannot
 * change until this execution commits: a second execution waits here and counts this one.
 */
export async function judgeAgentExecution(
  em: EntityManager,
  subject: ExecutionSubject,
  options: { approved: boolean; holdSeconds: number },
): Promise<GateVerdict> {
  const agent = await em.findOne(Agent, { id: subject.agentId! }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!agent) throw new DomainError('FORBIDDEN', 'The agent that made this quote was deleted', { rule: 'AGENT_DELETED' });
  const made = await em.findOne(AgentQuote, { quoteId: subject.quoteId });
  const type: AgentActionType = made?.actionType ?? 'EXECUTE_QUOTE';
  // The customer's internal account the action uses: a transfer-in pays into one, everything else spends from one.
  const accountId = type === 'TRANSFER_IN' ? made!.transferDetails!.destinationAccountId : (subject.payerAccountId ?? '');
  const existing = await em.findOne(AgentAction, { quoteId: subject.quoteId });
  // Judged and approved already (a later gate's hold was approved): nothing new to judge or tell.
  if (existing?.status === 'APPROVED') return PASS;

  const policy = policyOf(agent.policy);
  const now = new Date();
  const amount = converted(policy.spendingLimits.currency, subject.sendingCurrency, subject.totalSendingAmount);
  const usage = await usageOf(em, agent, now, { excludingQuoteId: subject.quoteId });
  const refusal = policyRefusal(policy, agent.isPaused, { type, accountId, amount, usage });
  if (refusal) throw new DomainError('FORBIDDEN', refusal.message, { rule: refusal.rule });
  // A quote's rate is locked until it expires; an approval that comes later cannot spend it. (A
  // transfer has no rate to lapse: its hold's expiry bounds it.)
  if (options.approved && type === 'EXECUTE_QUOTE' && subject.quoteExpiresAt.getTime() <= now.getTime()) {
    throw new DomainError('QUOTE_EXPIRED', 'The quote expired while its action waited for approval');
  }
  const thresholds = policy.approvalThresholds;
  const held =
    !options.approved &&
    needsApproval(
      policy,
      accountId,
      thresholds?.currency && thresholds.amount !== undefined && thresholds.amount !== null
        ? converted(thresholds.currency, subject.sendingCurrency, subject.totalSendingAmount)
        : undefined,
    );
  const status: AgentActionStatus = held ? 'PENDING_APPROVAL' : 'APPROVED';
  const action =
    existing ??
    em.create(AgentAction, {
      id: `AgentAction:${randomUUID()}`,
      platformId: agent.platformId,
      agentId: agent.id,
      customerId: agent.customerId,
      type,
      status,
      approvalRequired: held,
      quoteId: subject.quoteId,
      transactionId: subject.transactionId,
      transferDetails: made?.transferDetails ?? null,
      createdAt: now,
      updatedAt: now,
    });
  // Counted in the policy's currency as it is now (an approval after a currency change counts it anew).
  action.spendAmount = amount;
  action.spendCurrency = policy.spendingLimits.currency;
  if (action.status !== status) {
    action.status = status;
    action.updatedAt = now;
  }
  await em.flush();
  const events = [await announce(em, action)];
  if (!held) return { pass: true, events };
  return {
    hold: {
      status: 'PENDING',
      expiresInSeconds: options.holdSeconds,
      reason: "the agent's policy asks the platform to approve this action (POST /agents/{agentId}/actions/{actionId}/approve or /reject)",
      events,
    },
  };
}

/**
 * A held payment ended without moving money. Held by the policy: the platform rejected the action
 * (REJECTED, with its reason), approved it but the policy or the execution then refused it
 * (FAILED), or nobody decided in time (EXPIRED: the action FAILED). Held by a later gate after the
 * policy approved it (the customer's SCA proof failed or lapsed): the approved action FAILED, as
 * the reference says of an approved action whose execution failed. Told once: a repeat finds it decided.
 */
export async function actionEnded(em: EntityManager, ended: HoldEnding): Promise<GateEvent[]> {
  const action = await em.findOne(AgentAction, { quoteId: ended.quoteId });
  if (!action) return [];
  const heldHere = ended.heldBy === AGENT_POLICY_GATE;
  if (heldHere ? action.status !== 'PENDING_APPROVAL' : action.status !== 'APPROVED') return [];
  action.status = heldHere && ended.outcome === 'REJECTED' ? 'REJECTED' : 'FAILED';
  if (action.status === 'REJECTED' && ended.reason) action.rejectionReason = ended.reason;
  action.updatedAt = new Date();
  await em.flush();
  return [await announce(em, action)];
}

/** The agent-action webhook of the action's new status (data: the AgentAction), recorded once per status. */
async function announce(em: EntityManager, action: AgentAction): Promise<GateEvent> {
  const [view] = await actionViews(em, [action]);
  // The execution holds the quote already: its environment is the payment's (the agent may be gone by the hold's end).
  const quote = await em.findOneOrFail(Quote, { id: action.quoteId! });
  const event = await recordWebhookEvent(em, {
    id: `Webhook:agent-action-${action.status}-${action.id}`,
    platformId: action.platformId,
    environment: quote.environment,
    type: actionWebhookType(action.status),
    data: view,
  });
  return { eventId: event.id, type: event.type };
}
