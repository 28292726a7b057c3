import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../domain/ids';
import { Customer, isUmaAddress } from '../../customers';
import { ExternalAccount } from '../../external-accounts';
import { InternalAccount } from '../../ledger';
import { isActiveFeeConfig, Platform } from '../../platforms';
import { currency, currencyView } from '../../../domain/currencies';
import { DomainError, type FieldError } from '../../../domain/errors';
import { Lookup } from '../entities';
import { corridorPreference, LOOKUP_LIFETIME_SECONDS, normalizeUmaAddress, requiredPayerDataFields, type LookupKind } from '../domain/lookups';
import { findCorridorTerms } from '../domain/pricing/corridors';
import { platformFeeFor } from '../domain/pricing/platform-fees';
import { receivingCurrencies, SENDING_CURRENCIES } from '../domain/pricing/rates';
import { checkWithdrawalAddress, isWithdrawalNetwork, WITHDRAWAL_CURRENCIES, withdrawalPairProblems } from '../domain/pricing/withdrawal-fees';
import { rateBook as defaultRateBook, type RateBook } from './rate-book';

/** The sender named by the lookup's query (both optional; see resolveSender). */
export interface SenderQuery {
  customerId?: string;
  senderUmaAddress?: string;
}

interface LookupContext {
  platform: Platform;
  sender: SenderQuery;
  now?: Date;
  rateBook?: RateBook;
}

const newLookupId = () => newId('Lookup');

export async function customerByUmaAddress(em: EntityManager, platformId: string, address: string): Promise<Customer | null> {
  return em.findOne(Customer, { platformId, isDeleted: false, [raw('lower(uma_address)')]: normalizeUmaAddress(address) } as never);
}

/**
 * The sending customer, when the query names one: `customerId` and `senderUmaAddress` must be a
 * live customer of the caller's platform, and the same one when both are given. Every problem is
 * `400 INVALID_INPUT` naming its parameter. Neither given: the platform sends on its own account.
 */
async function resolveSender(em: EntityManager, platformId: string, q: SenderQuery): Promise<Customer | undefined> {
  const errors: FieldError[] = [];
  const byId = q.customerId ? await em.findOne(Customer, { id: q.customerId, platformId, isDeleted: false }) : undefined;
  if (q.customerId && !byId) errors.push({ field: 'customerId', constraint: 'exists', message: 'no such customer' });
  let byAddress: Customer | null | undefined;
  if (q.senderUmaAddress) {
    byAddress = await customerByUmaAddress(em, platformId, q.senderUmaAddress);
    if (!byAddress) errors.push({ field: 'senderUmaAddress', constraint: 'exists', message: 'no customer of this platform has this UMA address' });
  }
  if (byId && byAddress && byId.id !== byAddress.id)
    errors.push({ field: 'senderUmaAddress', constraint: 'matchesCustomerId', message: 'the UMA address belongs to another customer than customerId' });
  if (errors.length > 0) throw DomainError.invalidInput(errors);
  return byId ?? byAddress ?? undefined;
}

/**
 * The currencies the lookup prices from: the platform's currencies enabled for OUTGOING payments
 * that the service sends (SENDING_CURRENCIES, in that order), narrowed to the sender's currencies
 * when a sender is named.
 */
function sendingCurrenciesOf(platform: Platform, sender: Customer | undefined): string[] {
  const enabled = new Set(platform.supportedCurrencies.filter((c) => c.enabledTransactionTypes.includes('OUTGOING')).map((c) => c.currencyCode));
  return SENDING_CURRENCIES.filter((code) => enabled.has(code) && (!sender || sender.currencies.includes(code)));
}

/**
 * Prices every corridor from `sending` to `receiving` the service offers and records the lookup.
 * No corridor at all is `400 INVALID_CURRENCY` (nothing could be quoted to this receiver).
 */
async function priceAndRecord(
  em: EntityManager,
  ctx: LookupContext,
  target: { kind: LookupKind; target: string; sending: string[]; receiving: string[]; receiverFields?: { name: string; mandatory: boolean }[] },
) {
  const now = ctx.now ?? new Date();
  const book = ctx.rateBook ?? defaultRateBook;
  const feeConfigs = ctx.platform.feeConfigs.filter(isActiveFeeConfig);
  const corridors: { from: string; to: string }[] = [];
  const supportedCurrencies = target.receiving.flatMap((to) =>
    target.sending.flatMap((from) => {
      const terms = findCorridorTerms(from, to);
      if (!terms) return [];
      const booked = book.quote(from, to, now);
      const preference = corridorPreference({
        terms,
        platformFee: platformFeeFor(feeConfigs, from, to),
        rate: booked.rate,
        sendingDecimals: currency(from).decimals,
        receivingDecimals: currency(to).decimals,
      });
      if (!preference) return [];
      corridors.push({ from, to });
      return [{ currency: currencyView(to), sendingCurrency: currencyView(from), ...preference }];
    }),
  );
  if (supportedCurrencies.length === 0) {
    throw new DomainError(
      'INVALID_CURRENCY',
      `Nothing can be sent to this receiver: no corridor from ${target.sending.join(', ') || 'any sending currency'} to ${target.receiving.join(', ') || 'any currency'}`,
      {
        sendingCurrencies: target.sending,
        receivingCurrencies: target.receiving,
      },
    );
  }
  const fields = requiredPayerDataFields({
    corridors,
    counterpartyInformationRequired: ctx.platform.counterpartyInformationRequired,
    receiverFields: target.receiverFields,
  });
  const lookup = em.create(Lookup, {
    id: newLookupId(),
    platformId: ctx.platform.id,
    kind: target.kind,
    target: target.target,
    receivingCurrencies: [...new Set(corridors.map((c) => c.to))],
    requiredPayerDataFields: fields,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LOOKUP_LIFETIME_SECONDS * 1000),
  });
  await em.flush();
  return { lookupId: lookup.id, supportedCurrencies, requiredPayerDataFields: fields, expiresAt: lookup.expiresAt.toISOString() };
}

/**
 * GET /receiver/external-account/{accountId}: one of the platform's live external accounts
 * (deleted ones and other platforms' are `404 NOT_FOUND`), priced from each sending currency.
 */
export async function lookupExternalAccount(em: EntityManager, ctx: LookupContext & { accountId: string }) {
  const account = await em.findOne(ExternalAccount, { id: ctx.accountId, platformId: ctx.platform.id, deletedAt: null });
  if (!account) throw DomainError.notFound('External account');
  const sender = await resolveSender(em, ctx.platform.id, ctx.sender);
  const result = await priceAndRecord(em, ctx, {
    kind: 'EXTERNAL_ACCOUNT',
    target: account.id,
    sending: sendingCurrenciesOf(ctx.platform, sender),
    receiving: [account.currency],
  });
  return { accountId: account.id, ...result };
}

/**
 * GET /receiver/uma/{receiverUmaAddress}: there is no UMA network here, so an address resolves
 * only to a live customer of the caller's own platform (any other address, another platform's
 * customers included, is `404 UMA_NOT_FOUND`). A malformed address is `400 INVALID_UMA_ADDRESS`;
 * a sender looking itself up is `400 SELF_PAYMENT`. The receiver takes its customer currencies
 * that the platform has enabled for INCOMING payments, and asks for the platform's
 * `requiredCounterpartyFields` of those currencies.
 */
export async function lookupUmaAddress(em: EntityManager, ctx: LookupContext & { receiverUmaAddress: string }) {
  const address = ctx.receiverUmaAddress;
  if (!isUmaAddress(address)) {
    throw new DomainError('INVALID_UMA_ADDRESS', 'receiverUmaAddress is not a UMA address such as $alice@uma.example.com', { receiverUmaAddress: address });
  }
  const receiver = await customerByUmaAddress(em, ctx.platform.id, address);
  if (!receiver) throw new DomainError('UMA_NOT_FOUND', 'No receiver has this UMA address', { receiverUmaAddress: address });
  const sender = await resolveSender(em, ctx.platform.id, ctx.sender);
  if (sender && sender.id === receiver.id)
    throw new DomainError('SELF_PAYMENT', 'The sender and the receiver are the same customer', { customerId: sender.id });
  const incoming = ctx.platform.supportedCurrencies.filter(
    (c) => c.enabledTransactionTypes.includes('INCOMING') && receiver.currencies.includes(c.currencyCode),
  );
  const receivable = new Set(receivingCurrencies());
  const receiving = receiver.currencies.filter((code) => receivable.has(code) && incoming.some((c) => c.currencyCode === code));
  const receiverFields = incoming.filter((c) => receiving.includes(c.currencyCode)).flatMap((c) => c.requiredCounterpartyFields);
  const result = await priceAndRecord(em, ctx, {
    kind: 'UMA_ADDRESS',
    target: normalizeUmaAddress(receiver.umaAddress),
    sending: sendingCurrenciesOf(ctx.platform, sender),
    receiving,
    receiverFields,
  });
  return { receiverUmaAddress: receiver.umaAddress, ...result };
}

/** GET /receiver/external-account/{accountId}: the lookup with the platform's settings (fees, currencies) read first. */
export async function lookupPlatformExternalAccount(em: EntityManager, platformId: string, accountId: string, sender: SenderQuery) {
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  return lookupExternalAccount(em, { platform, accountId, sender });
}

/** GET /receiver/uma/{receiverUmaAddress}: the lookup with the platform's settings (fees, currencies) read first. */
export async function lookupPlatformUmaAddress(em: EntityManager, platformId: string, receiverUmaAddress: string, sender: SenderQuery) {
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  return lookupUmaAddress(em, { platform, receiverUmaAddress, sender });
}

/**
 * The withdrawal's stored-data checks: the account (another platform's or an unknown one is
 * `404`) must be ACTIVE and hold the currency; the network must carry the currency, and the
 * address must be of the network's form. Only values of the right type are judged here.
 */
export async function withdrawalProblems(em: EntityManager, platformId: string, raw: unknown): Promise<FieldError[]> {
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
