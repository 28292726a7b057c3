import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { estimateWithdrawalFee, type WithdrawalNetwork } from '../domain/pricing/withdrawal-fees';
import { lookupPlatformExternalAccount, lookupPlatformUmaAddress, withdrawalProblems } from '../services/lookups';
import {
  EstimateCryptoWithdrawalFeeRequestSchema,
  EstimateCryptoWithdrawalFeeSchema,
  ReceiverExternalAccountLookupSchema,
  ReceiverLookupQuerySchema,
  ReceiverUmaLookupSchema,
  UmaAddressParams,
} from './lookup-schemas';

const TAGS = ['Cross-Currency Transfers'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });

export const lookupRoutes = [
  defineRoute({
    method: 'get',
    path: '/receiver/external-account/:accountId',
    operationId: 'lookupExternalAccount',
    summary: 'Look up an external account for payment',
    description: "Look up one of the platform's external accounts: what can be sent to it, at which estimated rates, and what the payer must tell",
    tags: TAGS,
    params: IdParam('accountId'),
    query: ReceiverLookupQuerySchema,
    responses: {
      200: { description: 'The lookup; its lookupId is accepted by POST /quotes until expiresAt', schema: ReceiverExternalAccountLookupSchema },
      400: bad('INVALID_INPUT (customerId, senderUmaAddress), INVALID_CURRENCY (no corridor reaches the account), QUOTE_RATE_UNAVAILABLE'),
      401: errorResponses[401],
      404: { description: 'NOT_FOUND: no such live external account on this platform', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, params, query }) => ({
      status: 200,
      body: await lookupPlatformExternalAccount(em, caller.platformId, params.accountId, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/receiver/uma/:receiverUmaAddress',
    operationId: 'lookupUma',
    summary: 'Look up an UMA address for payment',
    description: "Look up a UMA address (one of this platform's customers): the currencies it takes, estimated rates and what the payer must tell",
    tags: TAGS,
    params: UmaAddressParams,
    query: ReceiverLookupQuerySchema,
    responses: {
      200: { description: 'The lookup; its lookupId is accepted by POST /quotes until expiresAt', schema: ReceiverUmaLookupSchema },
      400: bad('INVALID_UMA_ADDRESS (malformed address), INVALID_INPUT (customerId, senderUmaAddress), SELF_PAYMENT, INVALID_CURRENCY, QUOTE_RATE_UNAVAILABLE'),
      401: errorResponses[401],
      404: { description: 'UMA_NOT_FOUND: well-formed, but no live customer of this platform has it', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, params, query }) => ({
      status: 200,
      body: await lookupPlatformUmaAddress(em, caller.platformId, params.receiverUmaAddress, query),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/crypto/estimate-withdrawal-fee',
    // Computes an answer and changes nothing.
    permission: 'VIEW',
    operationId: 'estimateCryptoWithdrawalFee',
    summary: 'Estimate crypto withdrawal fee',
    description: 'Estimate the network and application fees of withdrawing crypto from an internal account to an address',
    tags: TAGS,
    body: EstimateCryptoWithdrawalFeeRequestSchema,
    check: async ({ em, caller, body }) => withdrawalProblems(em, caller.platformId, body),
    responses: {
      200: { description: 'The estimate (the sandbox network-fee table, versioned)', schema: EstimateCryptoWithdrawalFeeSchema },
      400: bad(
        'INVALID_INPUT (every invalid field, e.g. cryptoNetwork when it does not carry the currency), AMOUNT_OUT_OF_RANGE (the fees take the whole amount)',
      ),
      401: errorResponses[401],
      404: { description: 'NOT_FOUND: no such internal account on this platform', schema: errorResponses[404].schema },
    },
    handler: async ({ body }) => {
      const estimate = estimateWithdrawalFee({ currency: body.currency, network: body.cryptoNetwork as WithdrawalNetwork, amount: BigInt(body.amount) });
      return { status: 200, body: estimate };
    },
  }),
];
