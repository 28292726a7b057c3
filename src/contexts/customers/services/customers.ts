import { LockMode, raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import type { CustomerCreateRequest, CustomerUpdateRequest } from '../schemas/customer-requests';
import { Customer } from '../entities';
import { InternalAccount } from '../../ledger';
import { type Platform, isOnPlatformDomain, umaDomainOf, lockedUmaDomainOf, type Environment } from '../../platforms';
import { type WebhookEvent, recordWebhookEvent } from '../../webhooks';
import { mergeConsents, requestedConsents, unknownTermsVersion } from '../domain/agreements';
import type { ContactChannel } from '../domain/contact-verification';
import { isCountryCode, isRegionCode } from '../../../domain/countries';
import { conflictingCurrencies, defaultCurrencies, defaultRegionCode, isKnownCurrency, unsupportedCurrencies } from '../domain/customer-currencies';
import {
  applyOtherPairs,
  BUSINESS_OTHER_PAIRS,
  businessTaxIdProblems,
  DEFAULT_COUNTRY_OF_ISSUANCE,
  EDD_FIELDS,
  generatedUmaAddress,
  INDIVIDUAL_OTHER_PAIRS,
  isUmaAddress,
  otherDescriptionProblems,
  type OtherPair,
  type RuleIssue,
} from '../domain/customer-rules';
import { DomainError, type FieldError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { kycEventType, sandboxKycStatusAtCreation } from '../domain/onboarding';
import type { Page } from '../../../domain/pagination';
import { encrypt } from '../../../security/secrets';
import { listPage } from '../../../services/listing';
import { applyContactVerificationRules } from './contact-verification';
import { provisionCustomerAccounts } from './account-provisioning';
import { customerView } from './customer-views';

type Values = Record<string, unknown>;

export interface CustomerWriteContext {
  /** Seals the tax identification number. */
  masterKey: Buffer;
  /** Environment of the calling token, for the webhook events raised. */
  environment: Environment;
}

/** A field error naming the currencies that need separate customers. */
export interface CurrencyConflictError extends FieldError {
  conflictingCurrencies: string[];
}

// ---------------------------------------------------------------------------------------------
// Checks that need stored data. They read raw (possibly invalid) input and judge only what is
// well formed, so that the schema errors and these can be reported together.

function platformCurrencies(platform: Platform): string[] {
  return platform.supportedCurrencies.map((c) => c.currencyCode);
}

function currencyProblems(platform: Platform, regionCode: string | null | undefined, raw: unknown): FieldError[] {
  if (!Array.isArray(raw)) return [];
  const offered = platformCurrencies(platform);
  const errors: FieldError[] = [];
  raw.forEach((code, i) => {
    if (isKnownCurrency(code) && unsupportedCurrencies([code], offered).length > 0) {
      errors.push({ field: `currencies.${i}`, constraint: 'supported', message: `${code} is not enabled for this platform` });
    }
  });
  const usable = raw.filter((c): c is string => isKnownCurrency(c) && offered.includes(c));
  const conflicts = conflictingCurrencies(regionCode, usable);
  if (conflicts.length > 0) {
    const error: CurrencyConflictError = {
      field: 'currencies',
      constraint: 'separateCustomers',
      message: `${conflicts.join(' and ')} cannot be held by one customer of region ${regionCode ?? '(none)'}: EUR is held with the EU provider and GBP with the UK provider; create a separate customer for them`,
      conflictingCurrencies: conflicts,
    };
    errors.push(error);
  }
  return errors;
}

/** The customer's own country, used for the default region of multi-country platform regions. */
function customerCountry(body: Values): string | null {
  const address = body.address as Values | undefined;
  const businessInfo = body.businessInfo as Values | undefined;
  const candidates = body.customerType === 'BUSINESS' ? [businessInfo?.country, address?.country] : [address?.country, body.nationality];
  return (candidates.find((c) => isCountryCode(c)) as string | undefined) ?? null;
}

function regionFor(platform: Platform, body: Values): string | null {
  return isRegionCode(body.region) ? body.region : defaultRegionCode(platform.region, customerCountry(body));
}

function toFieldErrors(issues: RuleIssue[], prefix: string[] = []): FieldError[] {
  return issues.map((i) => ({ field: [...prefix, ...i.path].join('.'), constraint: i.constraint, message: i.message }));
}

function asValues(value: unknown): Values {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Values) : {};
}

/**
 * A UMA address must be on the platform's own domain (its default one while it has none): a
 * domain belongs to one platform, so no platform can claim addresses on another's.
 */
function umaAddressProblems(platform: Pick<Platform, 'id' | 'umaDomain'>, address: unknown): FieldError[] {
  if (!isUmaAddress(address) || isOnPlatformDomain(address as string, platform)) return [];
  return [{ field: 'umaAddress', constraint: 'domain', message: `must be on the platform's UMA domain, ${umaDomainOf(platform)}` }];
}

/** Create: currencies the platform offers, in a combination the customer's region allows; the address on the platform's domain. */
export function createProblems(platform: Platform, rawBody: unknown): FieldError[] {
  const body = asValues(rawBody);
  return [...umaAddressProblems(platform, body.umaAddress), ...currencyProblems(platform, regionFor(platform, body), body.currencies)];
}

/** Descriptions sent without their category are judged against the stored category. */
function descriptionOnlyProblems(stored: Values, request: Values, pairs: readonly OtherPair[]): RuleIssue[] {
  const alone = pairs.filter((p) => request[p.category] === undefined && request[p.description] !== undefined);
  return otherDescriptionProblems({ ...stored, ...request }, alone);
}

/**
 * Update (spec §4.4): customerType must be the customer's; currencies as on create, against the
 * customer's region; rules that combine the request with what is stored.
 */
export function updateProblems(platform: Platform, customer: Customer, rawBody: unknown): FieldError[] {
  const body = asValues(rawBody);
  const errors: FieldError[] = [];
  if ((body.customerType === 'INDIVIDUAL' || body.customerType === 'BUSINESS') && body.customerType !== customer.customerType) {
    errors.push({ field: 'customerType', constraint: 'match', message: `the customer is ${customer.customerType}; customerType cannot change` });
  }
  // Not part of the update body; a client echoing the customer back may send them unchanged.
  if (body.region !== undefined && body.region !== customer.regionCode) {
    errors.push({ field: 'region', constraint: 'immutable', message: 'region is set at creation and cannot change; create a separate customer' });
  }
  if (body.platformCustomerId !== undefined && body.platformCustomerId !== customer.platformCustomerId) {
    errors.push({ field: 'platformCustomerId', constraint: 'immutable', message: 'platformCustomerId cannot change' });
  }
  // A changed address must be on the platform's domain; an unchanged one (perhaps on a domain the platform has left) may be echoed back.
  if (typeof body.umaAddress !== 'string' || body.umaAddress.toLowerCase() !== customer.umaAddress.toLowerCase())
    errors.push(...umaAddressProblems(platform, body.umaAddress));
  if (body.customerType !== customer.customerType) return errors;
  errors.push(...currencyProblems(platform, customer.regionCode, body.currencies));
  const profile = customer.profile ?? {};
  if (customer.customerType === 'INDIVIDUAL') {
    errors.push(...toFieldErrors(descriptionOnlyProblems(profile, body, INDIVIDUAL_OTHER_PAIRS)));
  } else if (body.businessInfo && typeof body.businessInfo === 'object') {
    const stored = asValues(profile.businessInfo);
    const request = asValues(body.businessInfo);
    errors.push(...toFieldErrors(descriptionOnlyProblems(stored, request, BUSINESS_OTHER_PAIRS), ['businessInfo']));
    // A new taxId or country alone is judged with the stored other half (with both, the schema judges them).
    if ((request.country === undefined) !== (request.taxId === undefined)) {
      errors.push(...toFieldErrors(businessTaxIdProblems({ ...stored, ...request }), ['businessInfo']));
    }
  }
  return errors;
}

function assertKnownTermsVersions(consents: ReturnType<typeof requestedConsents>): void {
  const unknown = unknownTermsVersion(consents);
  if (unknown) {
    throw new DomainError('END_USER_TERMS_VERSION_NOT_FOUND', `Version ${unknown.termsVersion} of ${unknown.agreementType} does not exist`, {
      agreementType: unknown.agreementType,
      termsVersion: unknown.termsVersion,
    });
  }
}

/** Maps the violated unique index (PostgreSQL reports its name) to the API's 409. */
function conflictFrom(err: UniqueConstraintViolationException): DomainError {
  const constraint = (err as UniqueConstraintViolationException & { constraint?: string }).constraint ?? '';
  if (constraint.includes('uma_address')) return new DomainError('UMA_ADDRESS_EXISTS', 'That UMA address is already taken');
  if (constraint === 'customers_platform_customer_id_active')
    return new DomainError('CONFLICT', 'An active customer with this platformCustomerId already exists');
  return new DomainError('CONFLICT', 'The customer conflicts with an existing one');
}

function pick(values: Values, keys: readonly string[]): Values {
  return Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

// ---------------------------------------------------------------------------------------------
// Webhooks.

/**
 * Records the `CUSTOMER.KYC_*` / `CUSTOMER.KYB_*` event for the customer's current status, if
 * that status has one (PENDING, APPROVED, REJECTED). `data` is the customer as GET returns it.
 * Pass a derived `id` from code that may retry.
 */
export async function recordCustomerStatusEvent(em: EntityManager, customer: Customer, environment: Environment, id?: string): Promise<WebhookEvent | null> {
  const type = kycEventType(customer.customerType, customer.kycStatus);
  if (!type) return null;
  return recordWebhookEvent(em, { ...(id ? { id } : {}), platformId: customer.platformId, environment, type, data: customerView(customer) });
}

// ---------------------------------------------------------------------------------------------
// Writes.

export interface CustomerWrite {
  customer: Customer;
  /** Webhook events recorded in the transaction; start their delivery once it has committed. */
  events: WebhookEvent[];
  /** Internal accounts the write opened; announce them once the transaction has committed. */
  opened: InternalAccount[];
}

/**
 * A customer created by an earlier try of the same request, answered as that try would have
 * been. Its status event was recorded with it (an undelivered one is the webhook sweep's); its
 * accounts are offered for announcement again, and announceOpenedAccounts skips those already
 * announced.
 */
async function foundAgain(em: EntityManager, customer: Customer): Promise<CustomerWrite> {
  return { customer, events: [], opened: await em.find(InternalAccount, { customerId: customer.id }) };
}

/**
 * Creates a customer in one transaction: its sandbox KYC status at creation (spec §8), its
 * internal accounts when it may already hold balances, and the webhook of its status. A caller
 * that may retry passes a derived `id` (the bulk import) or its Idempotency-Key (the id then
 * derives from it and the platform): a second try finds the customer of the first, which may
 * have committed and died before answering, instead of creating another or being refused its
 * own platformCustomerId. Inside a caller's transaction it joins that transaction.
 */
export async function createCustomer(
  em: EntityManager,
  platform: Platform,
  input: CustomerCreateRequest,
  ctx: CustomerWriteContext,
  options: { id?: string; idempotencyKey?: string } = {},
): Promise<CustomerWrite> {
  const consents = requestedConsents(input);
  assertKnownTermsVersions(consents);
  const problems = createProblems(platform, input);
  if (problems.length > 0) throw DomainError.invalidInput(problems);

  const id = options.id ?? (options.idempotencyKey ? derivedId('Customer', platform.id, 'customer', options.idempotencyKey) : newId('Customer'));
  const platformCustomerId = input.platformCustomerId ?? id.slice('Customer:'.length).replace(/-/g, '');
  const regionCode = regionFor(platform, input as Values);
  const now = new Date();
  let profile: Values;
  let individual: Partial<Pick<Customer, 'fullName' | 'birthDate' | 'nationality'>> = {};
  let identifierEncrypted: string | null = null;
  if (input.customerType === 'INDIVIDUAL') {
    profile = pick(input, EDD_FIELDS);
    if (input.idType !== undefined) {
      profile = { idType: input.idType, countryOfIssuance: input.countryOfIssuance ?? DEFAULT_COUNTRY_OF_ISSUANCE, ...profile };
    }
    if (input.identifier !== undefined) identifierEncrypted = encrypt(ctx.masterKey, input.identifier);
    individual = { fullName: input.fullName ?? null, birthDate: input.birthDate ?? null, nationality: input.nationality ?? null };
  } else {
    profile = { businessInfo: input.businessInfo };
  }

  try {
    return await em.transactional(async (tx) => {
      const earlier = await tx.findOne(Customer, { id, platformId: platform.id });
      if (earlier) return foundAgain(tx, earlier);
      // The domain as committed now (a change may have landed since the checks above).
      const umaDomain = await lockedUmaDomainOf(tx, platform.id);
      const domainProblems = umaAddressProblems({ id: platform.id, umaDomain }, input.umaAddress);
      if (domainProblems.length > 0) throw DomainError.invalidInput(domainProblems);
      const customer = tx.create(Customer, {
        id,
        platformId: platform.id,
        platformCustomerId,
        customerType: input.customerType,
        umaAddress: input.umaAddress ?? generatedUmaAddress(platformCustomerId, umaDomain, randomBytes(4).toString('hex')),
        kycStatus: sandboxKycStatusAtCreation(platform, {
          customerType: input.customerType,
          fullName: input.customerType === 'INDIVIDUAL' ? input.fullName : null,
        }),
        regionCode,
        currencies: input.currencies ?? defaultCurrencies(platformCurrencies(platform), regionCode),
        email: input.email ?? null,
        phoneNumber: input.phoneNumber ?? null,
        fullName: null,
        birthDate: null,
        nationality: null,
        ...individual,
        address: input.address ?? null,
        identifierEncrypted,
        contactVerification: null,
        profile,
        agreementConsents: mergeConsents([], consents),
        isDeleted: false,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      await applyContactVerificationRules(tx, platform, customer);
      const opened = await provisionCustomerAccounts(tx, platform, customer);
      const event = await recordCustomerStatusEvent(tx, customer, ctx.environment);
      return { customer, events: event ? [event] : [], opened };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflictFrom(err);
    throw err;
  }
}

/** What a PATCH can change, to tell a real change (updatedAt moves) from a no-op. */
function snapshot(c: Customer): string {
  return JSON.stringify([
    c.email,
    c.phoneNumber,
    c.umaAddress,
    c.currencies,
    c.agreementConsents,
    c.fullName,
    c.birthDate,
    c.nationality,
    c.address,
    c.profile,
    c.identifierEncrypted,
  ]);
}

/**
 * Applies a PATCH (spec §4.4) under a row lock: fields present replace stored ones, `currencies`
 * replaces the list, `agreementConsents` adds or renews acceptances per type. Accounts the change
 * makes due are opened in the same transaction. A deleted customer is not found.
 */
export async function updateCustomer(
  em: EntityManager,
  platform: Platform,
  customerId: string,
  input: CustomerUpdateRequest,
  ctx: CustomerWriteContext,
): Promise<CustomerWrite> {
  const consents = requestedConsents(input);
  assertKnownTermsVersions(consents);
  try {
    return await em.transactional(async (tx) => {
      const customer = await tx.findOne(Customer, { id: customerId, platformId: platform.id, isDeleted: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!customer) throw DomainError.notFound('Customer');
      const problems = updateProblems(platform, customer, input);
      if (problems.length > 0) throw DomainError.invalidInput(problems);

      const before = snapshot(customer);
      // A replaced contact has to be verified again where the provider verifies contacts.
      const changedContacts: ContactChannel[] = [];
      if (input.email !== undefined && input.email !== customer.email) {
        customer.email = input.email;
        changedContacts.push('email');
      }
      if (input.phoneNumber !== undefined && input.phoneNumber !== customer.phoneNumber) {
        customer.phoneNumber = input.phoneNumber;
        changedContacts.push('phone');
      }
      if (input.umaAddress !== undefined && input.umaAddress.toLowerCase() !== customer.umaAddress.toLowerCase()) {
        // Judged again against the domain as committed now, as on create.
        const domainProblems = umaAddressProblems({ id: platform.id, umaDomain: await lockedUmaDomainOf(tx, platform.id) }, input.umaAddress);
        if (domainProblems.length > 0) throw DomainError.invalidInput(domainProblems);
      }
      if (input.umaAddress !== undefined) customer.umaAddress = input.umaAddress;
      if (input.currencies !== undefined) customer.currencies = [...input.currencies];
      if (consents.length > 0) customer.agreementConsents = mergeConsents(customer.agreementConsents, consents);
      if (input.address !== undefined) customer.address = { ...input.address };

      const profile = { ...(customer.profile ?? {}) };
      if (input.customerType === 'INDIVIDUAL') {
        if (input.fullName !== undefined) customer.fullName = input.fullName;
        if (input.birthDate !== undefined) customer.birthDate = input.birthDate;
        if (input.nationality !== undefined) customer.nationality = input.nationality;
        let next = applyOtherPairs(profile, pick(input, EDD_FIELDS), INDIVIDUAL_OTHER_PAIRS);
        if (input.idType !== undefined && input.identifier !== undefined) {
          // The tax identification changes as a whole (the schema requires idType with identifier).
          next = { ...next, idType: input.idType, countryOfIssuance: input.countryOfIssuance ?? DEFAULT_COUNTRY_OF_ISSUANCE };
          customer.identifierEncrypted = encrypt(ctx.masterKey, input.identifier);
        }
        customer.profile = next;
      } else if (input.businessInfo !== undefined) {
        customer.profile = { ...profile, businessInfo: applyOtherPairs(asValues(profile.businessInfo), input.businessInfo, BUSINESS_OTHER_PAIRS) };
      }

      if (snapshot(customer) !== before) customer.updatedAt = new Date();
      await tx.flush();
      await applyContactVerificationRules(tx, platform, customer, { changed: changedContacts });
      const opened = input.currencies !== undefined || consents.length > 0 ? await provisionCustomerAccounts(tx, platform, customer) : [];
      return { customer, events: [], opened };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflictFrom(err);
    throw err;
  }
}

/** Soft delete: the customer stays readable by id with `isDeleted: true`; a repeat is `410 CUSTOMER_DELETED`. */
export async function deleteCustomer(em: EntityManager, platformId: string, customerId: string): Promise<Customer> {
  return em.transactional(async (tx) => {
    const customer = await tx.findOne(Customer, { id: customerId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!customer) throw DomainError.notFound('Customer');
    if (customer.isDeleted) throw new DomainError('CUSTOMER_DELETED', 'The customer has already been deleted');
    customer.isDeleted = true;
    customer.updatedAt = new Date();
    await tx.flush();
    return customer;
  });
}

// ---------------------------------------------------------------------------------------------
// Reads.

export async function findCustomer(em: EntityManager, platformId: string, customerId: string): Promise<Customer | null> {
  return em.findOne(Customer, { id: customerId, platformId });
}

export interface CustomerListFilter {
  limit: number;
  cursor?: string;
  platformCustomerId?: string;
  customerType?: 'INDIVIDUAL' | 'BUSINESS';
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  region?: string;
  currency?: string;
  umaAddress?: string;
  isIncludingDeleted: boolean;
}

/** The platform's customers, newest first; date bounds are inclusive. */
export async function listCustomers(em: EntityManager, platformId: string, q: CustomerListFilter): Promise<Page<ReturnType<typeof customerView>>> {
  const range = (after?: string, before?: string) =>
    after || before ? { ...(after ? { $gte: new Date(after) } : {}), ...(before ? { $lte: new Date(before) } : {}) } : undefined;
  const created = range(q.createdAfter, q.createdBefore);
  const updated = range(q.updatedAfter, q.updatedBefore);
  const where: FilterQuery<Customer> = {
    platformId,
    ...(q.isIncludingDeleted ? {} : { isDeleted: false }),
    ...(q.platformCustomerId ? { platformCustomerId: q.platformCustomerId } : {}),
    ...(q.customerType ? { customerType: q.customerType } : {}),
    ...(q.region ? { regionCode: q.region } : {}),
    ...(created ? { createdAt: created } : {}),
    ...(updated ? { updatedAt: updated } : {}),
    ...(q.umaAddress ? { [raw('lower(uma_address)')]: q.umaAddress.toLowerCase() } : {}),
    ...(q.currency ? { [raw('currencies @> ?::jsonb', [JSON.stringify([q.currency])])]: [] } : {}),
  };
  return listPage(em, Customer, where, q, (rows) => rows.map(customerView));
}
