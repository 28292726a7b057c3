import { QuoteRequestSchema, QuoteSchema, quoteView, TransferInRequestSchema, TransferOutRequestSchema, type QuoteRequest } from '../../payments';
import type { Caller } from '../../../api/context';
import type { HandlerContext } from '../../../api/route';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { findAgent } from '../services/agent-lookup';
import { agentTransfer, createAgentQuote, executeAgentQuote, type AgentCall } from '../services/agent-payments';
import { AgentActionSchema } from './schemas';

const TAGS = ['Agent Operations'];
const credential = 'agent' as const;

const policyRefusals = {
  403: {
    description:
      "FORBIDDEN: the agent's policy refuses it — details.rule names which: AGENT_PAUSED, PERMISSION, ACCOUNT_NOT_ALLOWED, PER_TRANSACTION_LIMIT, ACCOUNT_PER_TRANSACTION_LIMIT, DAILY_TRANSACTION_LIMIT, DAILY_LIMIT, MONTHLY_LIMIT (limits in the policy's currency); USER_NOT_READY, END_USER_TERMS_NOT_ACCEPTED",
    schema: errorResponses[401].schema,
  },
};

/** What an agent's request needs of the service: its agent read afresh (policy, pause), the engine, its key. */
async function callOf(ctx: Pick<HandlerContext<unknown, unknown, unknown>, 'em' | 'caller' | 'deps' | 'idempotencyKey'>): Promise<AgentCall> {
  const caller: Caller = ctx.caller;
  return {
    em: ctx.em,
    deps: ctx.deps,
    environment: caller.environment,
    agent: await findAgent(ctx.em, caller.platformId, caller.agent!.agentId),
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
  };
}

const actionAnswer =
  "The agent's action: APPROVED with its transaction when the policy lets it run at once, PENDING_APPROVAL (without its transaction until approved; the quote names it, nothing moved) while the platform decides (POST /agents/{agentId}/actions/{actionId}/approve or /reject, or POST /transactions/{transactionId}/approve or /reject), for at most 24 hours";

export const agentPaymentRoutes = [
  defineRoute({
    method: 'post',
    path: '/agents/me/quotes',
    credential,
    agentPermission: 'CREATE_QUOTES',
    operationId: 'agentCreateQuote',
    summary: 'Create a transfer quote',
    description:
      "A quote (the body of POST /quotes) for the agent's customer, paid from one of its internal accounts that the policy allows; the destination, when an account, must be the customer's too. Executed with POST /agents/me/quotes/{quoteId}/execute",
    tags: TAGS,
    body: QuoteRequestSchema,
    idempotent: true,
    responses: {
      201: { description: 'The quote, PENDING until executed or expired', schema: QuoteSchema },
      400: {
        description:
          'INVALID_INPUT (a source other than an internal account, immediatelyExecute, platformFeeOverride, …), QUOTE_RATE_UNAVAILABLE, AMOUNT_OUT_OF_RANGE, INVALID_CURRENCY, SELF_PAYMENT, …',
        schema: errorResponses[400].schema,
      },
      404: { description: "NOT_FOUND: an account that is not the agent's customer's", schema: errorResponses[404].schema },
      ...policyRefusals,
    },
    handler: async (ctx) => {
      const quote = await createAgentQuote(await callOf(ctx), ctx.body as QuoteRequest);
      return { status: 201, body: quoteView(quote) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/me/quotes/:quoteId/execute',
    credential,
    agentPermission: 'EXECUTE_QUOTES',
    operationId: 'agentExecuteQuote',
    summary: 'Execute a quote',
    description: "Execute a quote the agent made: the agent's policy judges it, then it runs at once or waits for the platform's approval",
    tags: TAGS,
    params: IdParam('quoteId'),
    idempotent: 'workflow',
    responses: {
      200: { description: actionAnswer, schema: AgentActionSchema },
      400: { description: 'QUOTE_EXPIRED, INSUFFICIENT_FUNDS, QUOTE_RATE_UNAVAILABLE, …', schema: errorResponses[400].schema },
      404: { description: 'QUOTE_NOT_FOUND: not a quote this agent made', schema: errorResponses[404].schema },
      409: { description: 'CONFLICT: the quote was executed already (by another request) or cannot be executed', schema: errorResponses[400].schema },
      ...policyRefusals,
    },
    handler: async (ctx) => {
      return { status: 200, body: await executeAgentQuote(await callOf(ctx), ctx.params.quoteId) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/me/transfer-out',
    credential,
    agentPermission: 'CREATE_TRANSFERS',
    operationId: 'agentCreateTransferOut',
    summary: 'Create a transfer-out',
    description: "Same-currency transfer from an internal account of the agent's customer to one of its external accounts, under the agent's policy",
    tags: TAGS,
    body: TransferOutRequestSchema,
    idempotent: true,
    responses: {
      201: { description: actionAnswer, schema: AgentActionSchema },
      400: { description: 'INVALID_INPUT (account kinds, different currencies), INSUFFICIENT_FUNDS, …', schema: errorResponses[400].schema },
      404: { description: "NOT_FOUND: an account that is not the agent's customer's", schema: errorResponses[404].schema },
      ...policyRefusals,
    },
    handler: async (ctx) => ({ status: 201, body: await agentTransfer(await callOf(ctx), 'TRANSFER_OUT', ctx.body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/agents/me/transfer-in',
    credential,
    agentPermission: 'CREATE_TRANSFERS',
    operationId: 'agentCreateTransferIn',
    summary: 'Create a transfer-in',
    description: "Same-currency pull from an external account of the agent's customer (ACH pull) into one of its internal accounts, under the agent's policy",
    tags: TAGS,
    body: TransferInRequestSchema,
    idempotent: true,
    responses: {
      201: { description: actionAnswer, schema: AgentActionSchema },
      400: { description: 'INVALID_INPUT (not a pullable account, account kinds, different currencies), …', schema: errorResponses[400].schema },
      404: { description: "NOT_FOUND: an account that is not the agent's customer's", schema: errorResponses[404].schema },
      ...policyRefusals,
    },
    handler: async (ctx) => ({ status: 201, body: await agentTransfer(await callOf(ctx), 'TRANSFER_IN', ctx.body) }),
  }),
];
