import type { EntityManager } from '@mikro-orm/postgresql';
import { ExternalAccount } from '../../external-accounts';
import { InternalAccount } from '../../ledger';
import {
  createQuoteForRequest,
  executeQuoteForRequest,
  executionRequestKey,
  findQuoteView,
  Quote,
  sameCurrencyTransfer,
  transferFieldProblems,
  transferInOf,
  transferOutOf,
  type ExecutionDeps,
  type QuoteRequest,
} from '../../payments';
import type { Environment } from '../../platforms';
import { DomainError, type FieldError } from '../../../domain/errors';
import type { AgentActionType, AgentTransferDetails } from '../domain/agent-actions';
import { mayUseAccount, policyOf } from '../domain/agent-policy';
import { AgentAction, AgentQuote, type Agent } from '../entities';
import { actionViews } from './agent-views';

export interface AgentCall {
  em: EntityManager;
  /** The engine and what answering a gate's hold needs (the payments context's execute use case). */
  deps: ExecutionDeps;
  environment: Environment;
  agent: Agent;
  /** The request's Idempotency-Key as the agent sent it. */
  idempotencyKey?: string;
}

/**
 * An agent's Idempotency-Key as the quote machinery sees it: the ids a key derives (the quote's,
 * the execution's request key) are the platform's namespace, so an agent's key is scoped to the
 * agent and never names the platform's own quote or another agent's.
 */
export function agentScopedKey(agentId: string, key: string | undefined): string | undefined {
  return key === undefined ? undefined : `agent:${agentId}:${key}`;
}

/**
 * The accounts an agent names must be its customer's: another customer's, the platform's or an
 * unknown one are all not found (the agent learns nothing of accounts that are not its customer's).
 */
async function assertCustomerAccounts(em: EntityManager, agent: Agent, accountIds: string[]): Promise<void> {
  for (const accountId of accountIds) {
    const where = { id: accountId, platformId: agent.platformId, customerId: agent.customerId };
    const found = accountId.startsWith('InternalAccount:')
      ? await em.findOne(InternalAccount, where, { fields: ['id'] })
      : accountId.startsWith('ExternalAccount:')
        ? await em.findOne(ExternalAccount, { ...where, deletedAt: null }, { fields: ['id'] })
        : null;
    if (!found) throw DomainError.notFound('Account');
  }
}

/**
 * An embedded wallet pays only with its owner's signature over each payment, which an agent
 * cannot give: its payment would wait for a signature nobody is asked for, then expire. 400 at once.
 */
function assertNotWallet(account: Pick<InternalAccount, 'type'>): void {
  if (account.type !== 'EMBEDDED_WALLET') return;
  throw DomainError.invalidInput([
    {
      field: 'source.accountId',
      constraint: 'notEmbeddedWallet',
      message: "an embedded wallet pays only with its owner's signature; an agent cannot sign for it",
    },
  ]);
}

/** 403 when the policy's account restrictions leave the account out (the gate judges it again at execution). */
function assertAccountAllowed(agent: Agent, accountId: string): void {
  if (!mayUseAccount(policyOf(agent.policy), accountId)) {
    throw new DomainError('FORBIDDEN', `The agent's policy does not allow the account ${accountId}`, { rule: 'ACCOUNT_NOT_ALLOWED' });
  }
}

/** What POST /quotes accepts that an agent may not ask for: each its field error (nothing is ignored silently). */
function agentQuoteProblems(agent: Agent, request: QuoteRequest & { immediatelyExecute?: boolean; platformFeeOverride?: unknown }): FieldError[] {
  const problems: FieldError[] = [];
  if (request.source.sourceType !== 'ACCOUNT' || !request.source.accountId?.startsWith('InternalAccount:'))
    problems.push({
      field: 'source',
      constraint: 'internalAccount',
      message: "an agent pays from an internal account of its customer: { sourceType: 'ACCOUNT', accountId }",
    });
  if (request.immediatelyExecute)
    problems.push({
      field: 'immediatelyExecute',
      constraint: 'agentExecution',
      message: 'an agent executes its quote with POST /agents/me/quotes/{quoteId}/execute',
    });
  if (request.platformFeeOverride !== undefined)
    problems.push({ field: 'platformFeeOverride', constraint: 'platformOnly', message: "the platform's fees are the platform's to set, not its agent's" });
  if (request.source.customerId !== undefined && request.source.customerId !== agent.customerId)
    problems.push({ field: 'source.customerId', constraint: 'agentCustomer', message: "the agent's customer is inferred; leave it out" });
  return problems;
}

/**
 * POST /agents/me/quotes: the quote of POST /quotes, for the agent's customer, made by the payments
 * context's one create use case with the agent's id (the quote and its transaction carry it, so the
 * policy gate judges its execution) and recorded as the agent's before its workflow starts.
 */
export async function createAgentQuote(call: AgentCall, request: QuoteRequest & { immediatelyExecute?: boolean; platformFeeOverride?: unknown }) {
  const { em, agent } = call;
  const problems = agentQuoteProblems(agent, request);
  if (problems.length > 0) throw DomainError.invalidInput(problems);
  const sourceId = (request.source as { accountId: string }).accountId;
  const destinationId = request.destination.destinationType === 'ACCOUNT' ? request.destination.accountId : undefined;
  await assertCustomerAccounts(em, agent, [sourceId, ...(destinationId ? [destinationId] : [])]);
  assertNotWallet(await em.findOneOrFail(InternalAccount, { id: sourceId }, { fields: ['type'] }));
  assertAccountAllowed(agent, sourceId);
  const key = agentScopedKey(agent.id, call.idempotencyKey);
  const { quote } = await createQuoteForRequest(em, call.deps, {
    platformId: agent.platformId,
    environment: call.environment,
    request,
    agentId: agent.id,
    ...(key ? { idempotencyKey: key } : {}),
    afterCreation: (q: Quote) => recordAgentQuote(em, agent, q, 'EXECUTE_QUOTE'),
  });
  return quote;
}

/** The quote is the agent's: what it may read and execute, and what the gate records its action as. A retry finds it recorded. */
async function recordAgentQuote(em: EntityManager, agent: Agent, quote: Quote, actionType: AgentActionType, transferDetails?: AgentTransferDetails) {
  await em
    .createQueryBuilder(AgentQuote)
    .insert({
      quoteId: quote.id,
      platformId: agent.platformId,
      agentId: agent.id,
      actionType,
      transferDetails: transferDetails ?? null,
      createdAt: new Date(),
    })
    .onConflict('quoteId')
    .ignore()
    .execute('run');
}

/** Whether the agent made the quote (an agent reads and executes only its own). */
async function isAgentQuote(em: EntityManager, agent: Pick<Agent, 'id' | 'platformId'>, quoteId: string): Promise<boolean> {
  return (await em.findOne(AgentQuote, { quoteId, agentId: agent.id, platformId: agent.platformId })) !== null;
}

/** GET /agents/me/quotes/{quoteId}: a quote the agent made, as POST /quotes shows it; any other is not found. */
export async function findAgentQuoteView(em: EntityManager, me: { agentId: string; platformId: string }, quoteId: string) {
  const quote = (await isAgentQuote(em, { id: me.agentId, platformId: me.platformId }, quoteId)) ? await findQuoteView(em, me.platformId, quoteId) : null;
  if (!quote) throw DomainError.notFound('Quote');
  return quote;
}

/**
 * POST /agents/me/quotes/{quoteId}/execute: a quote the agent made (any other is not found),
 * executed by the payments context's one execute use case, as POST /quotes/{id}/execute is (a
 * retry re-sends an execution the workflow may have lost; a gate's hold is answered). The policy
 * gate judges it there: refused (403), approved (the payment runs) or held for the platform's
 * approval. Answered with the agent's action.
 */
export async function executeAgentQuote(call: AgentCall, quoteId: string) {
  const { em, agent } = call;
  const quote = (await isAgentQuote(em, agent, quoteId)) ? await em.findOne(Quote, { id: quoteId, platformId: agent.platformId }) : null;
  if (!quote) throw DomainError.notFound('Quote');
  await executeQuoteForRequest(em, call.deps, { quote, requestKey: executionRequestKey(agentScopedKey(agent.id, call.idempotencyKey)) });
  return actionOf(em, quote);
}

/**
 * POST /agents/me/transfer-out|in: the platform's same-currency transfer (a quote locked on the
 * sending side, executed at once, by the payments context), with the agent's id on the quote,
 * recorded as the agent's TRANSFER_* before it is executed. Answered with the agent's action.
 */
export async function agentTransfer(
  call: AgentCall,
  kind: 'TRANSFER_OUT' | 'TRANSFER_IN',
  body: Parameters<typeof transferOutOf>[0] & Parameters<typeof transferInOf>[0],
) {
  const { em, agent } = call;
  const transfer = kind === 'TRANSFER_OUT' ? transferOutOf(body) : transferInOf(body);
  const problems = transferFieldProblems(transfer);
  if (problems.length > 0) throw DomainError.invalidInput(problems);
  await assertCustomerAccounts(em, agent, [transfer.internal.accountId, transfer.external.accountId]);
  assertAccountAllowed(agent, transfer.internal.accountId);
  const internal = await em.findOneOrFail(InternalAccount, { id: transfer.internal.accountId });
  if (kind === 'TRANSFER_OUT') assertNotWallet(internal);
  const details: AgentTransferDetails = {
    amount: String(body.amount),
    currency: internal.currency,
    sourceAccountId: body.source.accountId,
    destinationAccountId: body.destination.accountId,
  };
  const key = agentScopedKey(agent.id, call.idempotencyKey);
  let recorded: string | undefined;
  try {
    const { quote } = await sameCurrencyTransfer(
      {
        em,
        deps: call.deps,
        platformId: agent.platformId,
        environment: call.environment,
        agentId: agent.id,
        ...(key ? { idempotencyKey: key } : {}),
        beforeExecution: async (q) => {
          recorded = q.id;
          await recordAgentQuote(em, agent, q, kind, details);
        },
      },
      transfer,
    );
    return await actionOf(em, quote);
  } catch (err) {
    // A refused transfer's quote is withdrawn by the payments context: the agent's record of it goes too.
    if (recorded && !(await em.fork().findOne(Quote, { id: recorded }, { fields: ['id'] }))) await em.fork().nativeDelete(AgentQuote, { quoteId: recorded });
    throw err;
  }
}

/** The action the quote's execution recorded, as it is now. */
async function actionOf(em: EntityManager, quote: Quote) {
  const fresh = em.fork();
  const action = await fresh.findOne(AgentAction, { quoteId: quote.id });
  // The policy records the action when it judges the execution; a hold before it (the customer's
  // strong authentication) leaves none yet.
  if (!action) throw new DomainError('CONFLICT', 'The payment waits for an authorization before the agent policy judges it', { quoteId: quote.id });
  return (await actionViews(fresh, [action]))[0]!;
}
