import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform } from '../../platforms';
import { InternalAccount } from '../../ledger';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { DomainError, type FieldError } from '../../../domain/errors';
import {
  checkWithdrawalAddress,
  estimateWithdrawalFee,
  isWithdrawalNetwork,
  WITHDRAWAL_CURRENCIES,
  withdrawalPairProblems,
  type WithdrawalNetwork,
} from '../domain/pricing/withdrawal-fees';
import { lookupExternalAccount, lookupUmaAddress } from '../services/lookups';
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

/**
 * The withdrawal's stored-data checks: the account (another platform's or an unknown one is
 * `404`) must be ACTIVE and hold the currency; the network must carry the currency, and the
 * address must be of the network's form. Only values of the right type are judged here.
 */
async function withdrawalProblems(em: EntityManager, platformId: string, raw: unknown): Promise<FieldError[]> {
  const body = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  const currency = typeof body.currency === 'string' && WITHDRAWAL_CURRENCIES.includes(body.currency) ? body.currency : undefined;
  const network = typeof body.cryptoNetwork === 'string' && isWithdrawalNetwork(body.cryptoNetwork) ? body.cryptoNetwork : undefined;
  if (typeof body.internalAccountId === 'string' && body.internalAccountId.length > 0) {
    const account = await em.findOne(InternalAccount, { id: body.internalAccountId, platformId });
    if (!account) throw DomainError.notFound('Internal account');
    if (account.status !== 'ACTIVE') errors.push({ field: 'internalAccountId', constraint: 'active', message: `the account is ${account.status}` });
    if (currency && account.currency !== currency)
      errors.push({ field: 'currency', constraint: 'matchesAccount', message: `the account holds ${account.currency}`, hint: { enum: [account.currency] } });
  }
  const pair = currency && network ? withdrawalPairProblems(currency, network) : [];
  errors.push(...pair);
  if (network && pair.length === 0 && typeof body.destinationAddress === 'string' && body.destinationAddress.length > 0) {
    const address = checkWithdrawalAddress(network, body.destinationAddress);
    if (!address.valid) errors.push({ field: 'destinationAddress', constraint: 'format', message: `not a ${network} address: ${address.reason}` });
  }
  return errors;
}

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
    handler: async ({ em, caller, params, query }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      return { status: 200, body: await lookupExternalAccount(em, { platform, accountId: params.accountId, sender: query }) };
    },
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
    handler: async ({ em, caller, params, query }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      return { status: 200, body: await lookupUmaAddress(em, { platform, receiverUmaAddress: params.receiverUmaAddress, sender: query }) };
    },
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
