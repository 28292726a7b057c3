import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { fundingInstructions, InternalAccount } from '../../ledger';
import { Quote, Transaction } from '../entities';
import { Customer, assertCustomerMayMoveMoney } from '../../customers';
import { ExternalAccount, assertExternalAccountUsable, externalAccountView } from '../../external-accounts';
import { type Environment, isActiveFeeConfig, Platform } from '../../platforms';
import { currency as currencyOf, currencyView, findCurrency } from '../../../domain/currencies';
import { DomainError, type FieldError } from '../../../domain/errors';
import { depositNetworkProblems, type DepositNetwork } from '../../../domain/deposit-networks';
import { derivedId, newId } from '../../../domain/ids';
import { assertWithinCorridorLimits, corridorTerms, purposeOfPaymentRequired, quoteLifetimeSeconds } from '../domain/pricing/corridors';
import { priceQuote } from '../domain/pricing/quote-math';
import { platformFeeFor } from '../domain/pricing/platform-fees';
import { rateBook } from './rate-book';
import { customerByUmaAddress } from './lookups';
import { rateDetailsView, shownDestination } from './transaction-views';
import { Lookup } from '../entities';
import { assertLookupUsable } from '../domain/lookups';
import { valueIn } from '../domain/pricing/value-in';
import { isPullable, PULL_RAILS } from '../domain/pull-scenarios';
import { aliasedColumns, heldOrFind, mapAliased } from '../../../db/joined-rows';
import { insertTogether } from '../../../db/combined-insert';
import { fundingNeedsAuthorization } from './quote-authorization';
import { assertPaymentFactorAvailable, paymentFactor } from '../../sca';
import { isPending, scaChallengeView } from '../domain/quote-challenge';
import { walletPaymentPayload } from '../domain/wallet-payload';

export interface QuoteRequest {
  source:
    | { sourceType: 'ACCOUNT'; accountId: string; customerId?: string }
    | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId?: string; cryptoNetwork?: string };
  destination:
    { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: string } | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency?: string };
  lookupId?: string;
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  immediatelyExecute?: boolean;
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  platformFeeOverride?: { platformFixedFee: { amount: number; currency: string }; platformVariableFeeBps: number };
  senderCustomerInfo?: Record<string, unknown>;
  /** The factor of the quote's SCA challenges (SMS_OTP by default, or PASSKEY); TOTP is refused: it cannot carry dynamic linking. */
  scaFactor?: 'SMS_OTP' | 'TOTP' | 'PASSKEY';
}

const field = (path: string, constraint: string, message: string): FieldError => ({ field: path, constraint, message });
const invalid = (errors: FieldError[]) => DomainError.invalidInput(errors);

interface Destination {
  accountId: string;
  currency: string;
  rails: string[];
  external?: ExternalAccount;
  internal?: InternalAccount;
  /** A UMA receiver: one of the platform's customers, paid into its internal account. */
  umaAddress?: string;
}

/**
 * A UMA address: the quote names the lookup made of it (lookupId, still valid, of this address),
 * carries every mandatory payer field the lookup asked for, and pays the receiving customer's
 * internal account in the chosen currency (the lookup's first when none is chosen).
 */
async function resolveUmaDestination(
  em: EntityManager,
  platform: Platform,
  request: QuoteRequest,
  d: { umaAddress: string; currency?: string },
): Promise<Destination> {
  const lookup = request.lookupId ? await em.findOne(Lookup, { id: request.lookupId }) : null;
  assertLookupUsable(lookup, {
    platformId: platform.id,
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: d.umaAddress, ...(d.currency ? { currency: d.currency } : {}) },
    now: new Date(),
  });
  const missing = lookup.requiredPayerDataFields.filter((f) => f.mandatory && request.senderCustomerInfo?.[f.name] === undefined);
  if (missing.length > 0) throw invalid(missing.map((f) => field(`senderCustomerInfo.${f.name}`, 'required', `the receiver requires ${f.name}`)));
  const receiver = await customerByUmaAddress(em, platform.id, d.umaAddress);
  if (!receiver) throw new DomainError('UMA_NOT_FOUND', 'No receiver has this UMA address');
  const currency = d.currency ?? lookup.receivingCurrencies[0]!;
  const account = await em.findOne(InternalAccount, { platformId: platform.id, customerId: receiver.id, currency, status: 'ACTIVE' });
  if (!account) throw invalid([field('destination.currency', 'enum', `the receiver holds no ${currency} account`)]);
  return { accountId: account.id, currency, rails: ['UMA'], umaAddress: receiver.umaAddress };
}

async function resolveDestination(em: EntityManager, platform: Platform, request: QuoteRequest): Promise<Destination> {
  const d = request.destination;
  if (d.destinationType === 'UMA_ADDRESS') return resolveUmaDestination(em, platform, request, d);
  if (d.accountId.startsWith('ExternalAccount:')) {
    const external = await heldOrFind(
      em,
      ExternalAccount,
      d.accountId,
      { id: d.accountId, platformId: platform.id, deletedAt: null },
      (e) => e.platformId === platform.id && !e.deletedAt,
    );
    if (!external) throw invalid([field('destination.accountId', 'exists', 'no such external account')]);
    const rails = (externalAccountView(external).accountInfo as { paymentRails?: string[] }).paymentRails ?? [external.accountType];
    return { accountId: external.id, currency: external.currency, rails, external };
  }
  const internal = await heldOrFind(em, InternalAccount, d.accountId, { id: d.accountId, platformId: platform.id }, (a) => a.platformId === platform.id);
  if (!internal) throw invalid([field('destination.accountId', 'exists', 'no such internal or external account')]);
  return { accountId: internal.id, currency: internal.currency, rails: ['INTERNAL_TRANSFER'], internal };
}

interface Source {
  /** The payer's internal account; none when the money comes from outside (real-time funding, a pull). */
  accountId?: string;
  /** A pull source: the customer's external bank account the service debits (ACH pull). */
  pullFrom?: ExternalAccount;
  /** As the quote shows it (real-time funding in crypto: with the chain the deposit address is on). */
  stored: Record<string, unknown>;
  /** The payer is an EMBEDDED_WALLET: its owner signs the quote's payloadToSign to pay it. */
  wallet?: boolean;
}

/**
 * Where the money comes from: an internal account of the platform (its currency is the sending
 * currency; the payment is its owner's, or, from one of the platform's own accounts, that of the
 * customer the platform pays for), an external bank account the service can pull from (a
 * direct-debit rail, still usable: validated and not deleted), or real-time funding in a
 * currency the service accepts, for a customer of the platform or (without customerId) the
 * platform itself.
 */
async function resolveSource(
  em: EntityManager,
  platform: Platform,
  request: QuoteRequest,
): Promise<{ source: Source; sendingCurrency: string; customerId: string | null }> {
  const s = request.source;
  if (s.sourceType === 'REALTIME_FUNDING') {
    if (s.customerId && !(await heldOrFind(em, Customer, s.customerId, { id: s.customerId, platformId: platform.id }, (c) => c.platformId === platform.id)))
      throw DomainError.notFound('Customer');
    if (!findCurrency(s.currency)) throw invalid([field('source.currency', 'enum', 'not a currency this service moves')]);
    // Tokens sent on another chain than the deposit address's are lost: the network must carry the currency.
    const networkProblems = depositNetworkProblems(s.currency, s.cryptoNetwork, 'source.cryptoNetwork');
    if (networkProblems.length > 0) throw invalid(networkProblems);
    const cryptoNetwork = s.cryptoNetwork as DepositNetwork | undefined;
    return {
      source: {
        stored: {
          sourceType: 'REALTIME_FUNDING',
          currency: s.currency,
          ...(cryptoNetwork ? { cryptoNetwork } : {}),
          ...(s.customerId ? { customerId: s.customerId } : {}),
        },
      },
      sendingCurrency: s.currency,
      customerId: s.customerId ?? null,
    };
  }
  if (s.accountId.startsWith('ExternalAccount:')) return resolvePullSource(em, platform, s);
  const account = await heldOrFind(em, InternalAccount, s.accountId, { id: s.accountId, platformId: platform.id }, (a) => a.platformId === platform.id);
  if (!account) throw invalid([field('source.accountId', 'exists', 'no such internal account')]);
  if (account.status !== 'ACTIVE') throw invalid([field('source.accountId', 'active', `the account is ${account.status}`)]);
  const customerId = await spendingCustomer(em, platform, account, s.customerId);
  if (request.immediatelyExecute && account.type === 'EMBEDDED_WALLET') {
    throw invalid([
      field(
        'immediatelyExecute',
        'embeddedWallet',
        'an EMBEDDED_WALLET source is executed with a wallet signature: create the quote without immediatelyExecute, then execute it',
      ),
    ]);
  }
  return {
    source: {
      accountId: account.id,
      stored: { sourceType: 'ACCOUNT', accountId: account.id, ...(customerId ? { customerId } : {}) },
      ...(account.type === 'EMBEDDED_WALLET' ? { wallet: true } : {}),
    },
    sendingCurrency: account.currency,
    customerId,
  };
}

/**
 * On whose behalf an internal account is spent: its owner, or, for one of the platform's own
 * accounts, the customer `source.customerId` names (the reference's FBO case: the platform pays
 * for its customer, whose payment it then is). A customer's account is never spent for another.
 */
async function spendingCustomer(em: EntityManager, platform: Platform, account: InternalAccount, named: string | undefined): Promise<string | null> {
  const owner = account.customerId ?? null;
  if (!named) return owner;
  if (owner) {
    if (named !== owner) throw invalid([field('source.customerId', 'accountOwner', 'the account belongs to another customer')]);
    return owner;
  }
  if (!(await heldOrFind(em, Customer, named, { id: named, platformId: platform.id }, (c) => c.platformId === platform.id)))
    throw DomainError.notFound('Customer');
  return named;
}

/** An external account as a source: the service pulls from it, so it must be reachable by a pull rail and usable now. */
async function resolvePullSource(
  em: EntityManager,
  platform: Platform,
  s: { accountId: string; customerId?: string },
): Promise<{ source: Source; sendingCurrency: string; customerId: string | null }> {
  const external = await heldOrFind(
    em,
    ExternalAccount,
    s.accountId,
    { id: s.accountId, platformId: platform.id, deletedAt: null },
    (e) => e.platformId === platform.id && !e.deletedAt,
  );
  if (!external) throw invalid([field('source.accountId', 'exists', 'no such internal or external account')]);
  const rails = (externalAccountView(external).accountInfo as { paymentRails?: string[] }).paymentRails ?? [];
  if (!isPullable(rails))
    throw invalid([
      field(
        'source.accountId',
        'pullable',
        `the service cannot pull from a ${external.accountType} (pull rails: ${PULL_RAILS.join(', ')}); fund an internal account instead`,
      ),
    ]);
  const customerId = external.customerId ?? null;
  if (s.customerId && s.customerId !== customerId) throw invalid([field('source.customerId', 'accountOwner', 'the account belongs to another customer')]);
  assertExternalAccountUsable(external, { platformRegion: platform.region, field: 'source.accountId' });
  return {
    source: { pullFrom: external, stored: { sourceType: 'ACCOUNT', accountId: external.id, ...(customerId ? { customerId } : {}) } },
    sendingCurrency: external.currency,
    customerId,
  };
}

function platformFee(
  platform: Platform,
  sendingCurrency: string,
  receivingCurrency: string,
  request: QuoteRequest,
): { fixedMinor: bigint; variableBps: number } {
  if (request.platformFeeOverride) {
    if (sendingCurrency !== 'USD') throw invalid([field('platformFeeOverride', 'usdSourceOnly', 'platformFeeOverride applies to USD sources only')]);
    if (request.platformFeeOverride.platformFixedFee.currency !== sendingCurrency)
      throw invalid([field('platformFeeOverride.platformFixedFee.currency', 'sendingCurrency', 'the fixed fee is in the sending currency')]);
    return { fixedMinor: BigInt(request.platformFeeOverride.platformFixedFee.amount), variableBps: request.platformFeeOverride.platformVariableFeeBps };
  }
  return platformFeeFor(platform.feeConfigs.filter(isActiveFeeConfig), sendingCurrency, receivingCurrency);
}

/** The ids a quote request derives from an Idempotency-Key (a repeat finds the first request's quote), or fresh ones. */
export function quoteIds(platformId: string, idempotencyKey: string | undefined): { quoteId: string; transactionId: string } {
  return idempotencyKey
    ? { quoteId: derivedId('Quote', platformId, 'quote', idempotencyKey), transactionId: derivedId('Transaction', platformId, 'quote', idempotencyKey) }
    : { quoteId: newId('Quote'), transactionId: newId('Transaction') };
}

/**
 * Everything a quote request names, read in ONE statement and left in the unit of work (so the
 * checks below find it without asking again): the platform, the quote an earlier request with the
 * same Idempotency-Key made, the source account (internal or external) with the customer it is
 * spent for, and the destination account (internal or external). What is not found here is
 * looked up as before, and refused there.
 */
export async function readQuoteRequestRows(
  em: EntityManager,
  platformId: string,
  request: QuoteRequest,
  earlierQuoteId: string | null,
): Promise<Platform | null> {
  const sourceId = request.source.sourceType === 'ACCOUNT' ? request.source.accountId : null;
  const destinationId = request.destination.destinationType === 'ACCOUNT' ? request.destination.accountId : null;
  const [row] = await em.getConnection().execute<Record<string, unknown>[]>(
    `select ${aliasedColumns(em, Platform, 'p')}, ${aliasedColumns(em, Quote, 'eq')}, ${aliasedColumns(em, InternalAccount, 'si')}, ${aliasedColumns(em, ExternalAccount, 'se')},
       ${aliasedColumns(em, Customer, 'c')}, ${aliasedColumns(em, InternalAccount, 'di')}, ${aliasedColumns(em, ExternalAccount, 'de')}
     from platforms p
       left join quotes eq on eq.id = ? and eq.platform_id = p.id
       left join internal_accounts si on si.id = ? and si.platform_id = p.id
       left join external_accounts se on se.id = ? and se.platform_id = p.id
       left join customers c on c.id = coalesce(?, si.customer_id, se.customer_id) and c.platform_id = p.id
       left join internal_accounts di on di.id = ? and di.platform_id = p.id
       left join external_accounts de on de.id = ? and de.platform_id = p.id
     where p.id = ?`,
    [earlierQuoteId, sourceId, sourceId, request.source.customerId ?? null, destinationId, destinationId, platformId],
  );
  if (!row) return null;
  mapAliased(em, Quote, row, 'eq');
  mapAliased(em, InternalAccount, row, 'si');
  mapAliased(em, ExternalAccount, row, 'se');
  mapAliased(em, Customer, row, 'c');
  mapAliased(em, InternalAccount, row, 'di');
  mapAliased(em, ExternalAccount, row, 'de');
  return mapAliased(em, Platform, row, 'p');
}

/**
 * Prices and records a quote and the PENDING transaction it will execute, in one database
 * transaction. Sources: internal accounts and real-time funding; destinations: external or
 * internal accounts (UMA addresses arrive with receiver lookups: 501 until then).
 */
export async function createQuote(
  em: EntityManager,
  input: { platform: Platform; environment: Environment; request: QuoteRequest; idempotencyKey?: string; agentId?: string },
): Promise<Quote> {
  // With an Idempotency-Key the ids derive from it: a request repeated after its first attempt
  // committed and died before answering (its claim taken over) finds that quote, not a second one.
  const ids = quoteIds(input.platform.id, input.idempotencyKey);
  if (input.idempotencyKey) {
    const earlier = await heldOrFind(em, Quote, ids.quoteId, { id: ids.quoteId, platformId: input.platform.id }, (q) => q.platformId === input.platform.id);
    if (earlier) return earlier;
  }
  const { platform, request } = input;
  const { source, sendingCurrency, customerId } = await resolveSource(em, platform, request);
  if (customerId) await assertCustomerMayMoveMoney(em, platform.id, customerId);

  const destination = await resolveDestination(em, platform, request);
  if (destination.accountId === (source.accountId ?? source.pullFrom?.id))
    throw new DomainError('SELF_PAYMENT', 'The source and the destination are the same account');
  // A pull credits its owner: money taken from a customer's bank lands in that customer's own account.
  if (source.pullFrom && destination.internal && (destination.internal.customerId ?? null) !== customerId) {
    throw invalid([field('destination.accountId', 'sameOwner', 'a pull from an external account pays into an internal account of the same owner')]);
  }
  // Money pulled into an internal account arrives (INCOMING, debiting the external account); everything else leaves.
  const incomingPull = !!source.pullFrom && !!destination.internal;
  const receivingCurrency = destination.currency;
  if (!findCurrency(receivingCurrency)) throw new DomainError('INVALID_CURRENCY', `${receivingCurrency} is not a currency this service moves`);
  // Corridors the service does not offer are INVALID_CURRENCY, a missing rate QUOTE_RATE_UNAVAILABLE.
  const { rate } = rateBook.quote(sendingCurrency, receivingCurrency);
  const terms = corridorTerms(sendingCurrency, receivingCurrency);
  const rail = request.destination.destinationType === 'ACCOUNT' && request.destination.paymentRail ? request.destination.paymentRail : destination.rails[0]!;
  if (!destination.rails.includes(rail))
    throw invalid([field('destination.paymentRail', 'enum', `the account is reachable by ${destination.rails.join(', ')}`)]);

  const customer = customerId ? await em.findOne(Customer, { id: customerId }) : null;
  const customerType = customer?.customerType;
  if (!request.purposeOfPayment && purposeOfPaymentRequired(receivingCurrency, undefined, customerType)) {
    throw invalid([field('purposeOfPayment', 'required', `purposeOfPayment is required for payments in ${receivingCurrency}`)]);
  }

  const priced = priceQuote({
    lockedSide: request.lockedCurrencySide,
    lockedAmount: BigInt(request.lockedCurrencyAmount),
    sending: currencyOf(sendingCurrency),
    receiving: currencyOf(receivingCurrency),
    rate,
    serviceFee: terms.serviceFee,
    platformFee: platformFee(platform, sendingCurrency, receivingCurrency, request),
  });
  assertWithinCorridorLimits(terms, priced.totalSendingAmount, sendingCurrency);
  if (destination.external)
    assertExternalAccountUsable(destination.external, {
      platformRegion: platform.region,
      amountEurCents: valueIn('EUR', sendingCurrency, priced.totalSendingAmount),
    });

  // Stored as JSON: the minor-unit fields are exact integers well inside the safe range (≤ 9e15).
  const rateDetails: Record<string, unknown> = Object.fromEntries(
    Object.entries(priced.rateDetails).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
  );
  const now = new Date();
  const { quoteId, transactionId } = ids;
  // SCA: a real-time quote of a customer of an SCA region waits for its authorization before its payment instructions are given.
  const realtime = !source.accountId && !source.pullFrom;
  const status = realtime && fundingNeedsAuthorization(platform, customer, destination.external ?? null) ? 'PENDING_AUTHORIZATION' : 'PENDING';
  // A quote its customer could not authorize is refused now, not recorded to lapse.
  if (status === 'PENDING_AUTHORIZATION') await assertPaymentFactorAvailable(em, customer!, paymentFactor(request.scaFactor));
  const quoteData: EntityData<Quote> = {
    id: quoteId,
    platformId: platform.id,
    environment: input.environment,
    customerId,
    status,
    scaFactor: request.scaFactor ?? null,
    source: source.stored,
    // A UMA destination keeps the receiving account too (not shown: the views drop it).
    destination: destination.umaAddress
      ? { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency: receivingCurrency, accountId: destination.accountId }
      : { destinationType: 'ACCOUNT', accountId: destination.accountId, paymentRail: rail },
    lockedSide: request.lockedCurrencySide,
    lockedAmount: BigInt(request.lockedCurrencyAmount),
    sendingCurrency,
    receivingCurrency,
    totalSendingAmount: priced.totalSendingAmount,
    totalReceivingAmount: priced.totalReceivingAmount,
    feesIncluded: priced.feesIncluded,
    platformFeesIncluded: priced.platformFeesIncluded,
    exchangeRate: priced.exchangeRate,
    rateDetails,
    paymentRail: rail,
    description: request.description ?? null,
    remittanceInformation: request.remittanceInformation ?? null,
    purposeOfPayment: request.purposeOfPayment ?? null,
    transactionId,
    agentId: input.agentId ?? null,
    walletPayloadToSign: source.wallet
      ? walletPaymentPayload({
          quoteId,
          transactionId,
          walletAccountId: source.accountId!,
          sendingCurrency,
          totalSendingAmount: priced.totalSendingAmount,
          receivingCurrency,
          totalReceivingAmount: priced.totalReceivingAmount,
          destination: destination.umaAddress ?? destination.accountId,
          createdAt: now,
        })
      : null,
    expiresAt: new Date(now.getTime() + quoteLifetimeSeconds(rail) * 1000),
    executedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const transactionData: EntityData<Transaction> = {
    id: transactionId,
    platformId: platform.id,
    customerId,
    type: incomingPull ? 'INCOMING' : 'OUTGOING',
    direction: 'DEBIT',
    status,
    source:
      source.accountId || source.pullFrom
        ? { sourceType: 'ACCOUNT', accountId: source.accountId ?? source.pullFrom!.id, currency: sendingCurrency }
        : {
            sourceType: 'REALTIME_FUNDING',
            currency: sendingCurrency,
            // The network the funds are to arrive on; the hash of their transfer joins it once they arrived (fundQuote).
            ...(source.stored.cryptoNetwork ? { cryptoNetwork: source.stored.cryptoNetwork } : {}),
          },
    destination: destination.umaAddress
      ? { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency: receivingCurrency, accountId: destination.accountId }
      : { destinationType: 'ACCOUNT', accountId: destination.accountId, currency: receivingCurrency },
    receivedAmount: priced.totalReceivingAmount,
    receivedCurrency: receivingCurrency,
    description: request.description ?? null,
    quoteId,
    agentId: input.agentId ?? null,
    sentAmount: priced.totalSendingAmount,
    sentCurrency: sendingCurrency,
    fees: priced.feesIncluded,
    platformFees: priced.platformFeesIncluded,
    exchangeRate: priced.exchangeRate,
    rateDetails,
    paymentRail: rail,
    createdAt: now,
    updatedAt: now,
  };
  // One statement (the ORM's flush would send two inserts in a transaction of their own).
  await insertTogether(em, [
    { entity: Transaction, data: transactionData },
    { entity: Quote, data: quoteData },
  ]);
  return em.getUnitOfWork().getById<Quote>(Quote, quoteId)!;
}

/** How to pay a real-time-funded quote: the service's receiving coordinates (on the quote's crypto network, if any) with a reference unique to the quote. */
export function quotePaymentInstructions(q: Quote) {
  const reference = `Q${createHash('sha256').update(q.id).digest('hex').slice(0, 11).toUpperCase()}`;
  return fundingInstructions({
    type: 'INTERNAL_FIAT',
    currency: q.sendingCurrency,
    fundingReference: reference,
    customerId: q.customerId ?? null,
    cryptoNetwork: (q.source.cryptoNetwork as DepositNetwork | undefined) ?? null,
  });
}

/** How an embedded wallet pays the quote: its owner's stamp over this payload, sent with the execute call. */
function walletPaymentInstructions(payloadToSign: string) {
  return [
    {
      instructionsNotes:
        'Sign payloadToSign with an active session key of the wallet and send the stamp in Svc-Wallet-Signature with POST /quotes/{id}/execute',
      isPlatformAccount: false,
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
    },
  ];
}

/** The API's Quote. */
export function quoteView(q: Quote) {
  return {
    id: q.id,
    status: q.status,
    createdAt: q.createdAt.toISOString(),
    expiresAt: q.expiresAt.toISOString(),
    source: q.source,
    destination: shownDestination(q.destination),
    sendingCurrency: currencyView(q.sendingCurrency),
    receivingCurrency: currencyView(q.receivingCurrency),
    totalSendingAmount: q.totalSendingAmount,
    totalReceivingAmount: q.totalReceivingAmount,
    exchangeRate: q.exchangeRate,
    feesIncluded: q.feesIncluded,
    platformFeesIncluded: q.platformFeesIncluded,
    transactionId: q.transactionId,
    rateDetails: rateDetailsView(q.rateDetails),
    // Withheld while the quote waits for its SCA authorization; shown once authorized.
    ...(q.source.sourceType === 'REALTIME_FUNDING' && q.status !== 'PENDING_AUTHORIZATION' ? { paymentInstructions: quotePaymentInstructions(q) } : {}),
    ...(q.walletPayloadToSign ? { paymentInstructions: walletPaymentInstructions(q.walletPayloadToSign) } : {}),
    ...(q.status === 'PENDING_AUTHORIZATION' && isPending(q.scaChallenge) ? { scaChallenge: scaChallengeView(q.scaChallenge) } : {}),
    ...(q.description ? { description: q.description } : {}),
  };
}
