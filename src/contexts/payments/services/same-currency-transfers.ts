import type { EntityManager } from '@mikro-orm/postgresql';
import { InternalAccount } from '../../ledger';
import { ExternalAccount } from '../../external-accounts';
import { Platform, type Environment } from '../../platforms';
import { DomainError, type FieldError } from '../../../domain/errors';
import { executionRequestKey } from '../domain/execution-attempts';
import type { Quote } from '../entities';
import { createQuote, type QuoteRequest } from './quotes';
import { executeQuoteCreatedForRequest, type ExecutionDeps } from './quote-execute';

export interface SameCurrencyTransfer {
  /** The request's names of the two accounts, for field errors. */
  internal: { field: string; accountId: string };
  external: { field: string; accountId: string };
  request: Omit<QuoteRequest, 'lockedCurrencySide' | 'lockedCurrencyAmount'>;
  amount: number;
}

/** POST /transfer-out's body (and the agents' mirror). */
export interface TransferOutBody {
  source: { accountId: string };
  destination: { accountId: string; paymentRail?: string };
  amount: number;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

/** POST /transfer-in's body (and the agents' mirror). */
export interface TransferInBody {
  source: { accountId: string };
  destination: { accountId: string };
  amount: number;
}

/** A transfer-out as a quote request: a payout from the internal account to the external one. */
export function transferOutOf(body: TransferOutBody): SameCurrencyTransfer {
  return {
    internal: { field: 'source.accountId', accountId: body.source.accountId },
    external: { field: 'destination.accountId', accountId: body.destination.accountId },
    amount: body.amount,
    request: {
      source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
      destination: {
        destinationType: 'ACCOUNT',
        accountId: body.destination.accountId,
        ...(body.destination.paymentRail ? { paymentRail: body.destination.paymentRail } : {}),
      },
      ...(body.remittanceInformation ? { remittanceInformation: body.remittanceInformation } : {}),
      ...(body.purposeOfPayment ? { purposeOfPayment: body.purposeOfPayment } : {}),
    },
  };
}

/** A transfer-in as a quote request: a pull from the external account into the internal one. */
export function transferInOf(body: TransferInBody): SameCurrencyTransfer {
  return {
    internal: { field: 'destination.accountId', accountId: body.destination.accountId },
    external: { field: 'source.accountId', accountId: body.source.accountId },
    amount: body.amount,
    request: {
      source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: body.destination.accountId },
    },
  };
}

/** A transfer names an internal and an external account, each by an id of its kind. */
export function transferFieldProblems(transfer: SameCurrencyTransfer): FieldError[] {
  const errors: FieldError[] = [];
  if (!transfer.internal.accountId.startsWith('InternalAccount:'))
    errors.push({ field: transfer.internal.field, constraint: 'internalAccount', message: 'must be an internal account id' });
  if (!transfer.external.accountId.startsWith('ExternalAccount:'))
    errors.push({ field: transfer.external.field, constraint: 'externalAccount', message: 'must be an external account id' });
  return errors;
}

export interface TransferCaller {
  em: EntityManager;
  deps: ExecutionDeps;
  platformId: string;
  environment: Environment;
  idempotencyKey?: string;
  /** The agent making the transfer: its quote carries it, so the agent's policy gate judges the execution. */
  agentId?: string;
  /** Runs after the quote is recorded and before it is executed (an agent records the quote as its own). */
  beforeExecution?: (quote: Quote) => Promise<void>;
}

/**
 * The deprecated same-currency transfers (spec §9), served by the quote machinery — a quote with
 * the amount locked on the sending side, executed at once — so they have the same gates, ledger
 * path, sandbox rows and webhooks as any quote: a transfer-out is a payout, a transfer-in a pull
 * from the customer's external account into its internal account. Used by the platform's
 * /transfer-in|out and the agents' mirrors of them. Executed as every quote created for its request
 * is: a refusal withdraws the quote and its transaction (nothing to list), a gate's hold is answered.
 */
export async function sameCurrencyTransfer(caller: TransferCaller, transfer: SameCurrencyTransfer) {
  const { em, platformId, idempotencyKey } = caller;
  const errors = transferFieldProblems(transfer);
  if (errors.length > 0) throw DomainError.invalidInput(errors);
  const [internal, external] = await Promise.all([
    em.findOne(InternalAccount, { id: transfer.internal.accountId, platformId }),
    em.findOne(ExternalAccount, { id: transfer.external.accountId, platformId, deletedAt: null }),
  ]);
  // A wallet pays only what its owner signed, and this call carries nothing to sign: its payments go through a quote.
  if (internal?.type === 'EMBEDDED_WALLET' && transfer.internal.field === 'source.accountId') {
    throw DomainError.invalidInput([
      {
        field: transfer.internal.field,
        constraint: 'embeddedWallet',
        message: 'an EMBEDDED_WALLET pays through a quote its owner signs: POST /quotes, then POST /quotes/{quoteId}/execute with Svc-Wallet-Signature',
      },
    ]);
  }
  if (internal && external && internal.currency !== external.currency) {
    throw DomainError.invalidInput([
      {
        field: transfer.external.field,
        constraint: 'sameCurrency',
        message: `the external account holds ${external.currency}, the internal one ${internal.currency}; use POST /quotes to convert`,
      },
    ]);
  }
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  const quote = await createQuote(em, {
    platform,
    environment: caller.environment,
    request: { ...transfer.request, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: transfer.amount },
    ...(idempotencyKey ? { idempotencyKey } : {}),
    ...(caller.agentId ? { agentId: caller.agentId } : {}),
  });
  await caller.beforeExecution?.(quote);
  const executed = await executeQuoteCreatedForRequest(em, caller.deps, { quote, requestKey: executionRequestKey(idempotencyKey) });
  return { quote, executed };
}
