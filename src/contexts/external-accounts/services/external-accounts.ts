import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ExternalAccount } from '../entities';
import { Customer } from '../../customers';
import { Platform, type Environment } from '../../platforms';
import { DomainError, type FieldError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { findCurrency } from '../../../domain/currencies';
import { listPage } from '../../../services/listing';
import { duplicateKey, type AccountInfo } from '../domain/account-identity';
import { accountTypeSpec, LIGHTNING_ALIAS } from '../domain/account-types';
import type { OwnershipType } from '../domain/account-status';
import { normalizedIdentifier } from '../domain/identifier-checks';
import { checkPixKey, type PixKeyType } from '../../../domain/identifiers/brazil';
import { counterpartyProblems, register, type Registration } from '../domain/registration';
import { externalAccountView } from './external-account-views';
import { currenciesWithMobileMoneyDirectory, findMobileMoneyProvider, findReceivingInstitution, findVasp } from '../../directories';

/** Who owns the accounts a route works on: a platform's customers, or the platform itself. */
export type Owner = 'CUSTOMER' | 'PLATFORM';

export interface NewExternalAccount {
  customerId?: string;
  currency: string;
  accountInfo: AccountInfo;
  platformAccountId?: string;
  ownershipType?: OwnershipType;
  defaultUmaDepositAccount?: boolean;
}

/** Problems only stored data or the platform's rules reveal, reported with the schema's. */
/** The field problems of a registration by the platform (registrationProblems), its settings read first. */
export async function registrationProblemsOf(em: EntityManager, platformId: string, body: Partial<NewExternalAccount>): Promise<FieldError[]> {
  return registrationProblems(await em.findOneOrFail(Platform, { id: platformId }), body);
}

export function registrationProblems(platform: Platform, body: Partial<NewExternalAccount>): FieldError[] {
  const problems: FieldError[] = [];
  const info = body.accountInfo;
  const spec = info && typeof info === 'object' ? accountTypeSpec(String(info.accountType)) : undefined;
  if (spec && typeof body.currency === 'string') {
    const known = findCurrency(body.currency);
    const allowed = spec.accountType === 'SWIFT_ACCOUNT' ? known?.kind === 'FIAT' : spec.currencies.includes(body.currency);
    if (!allowed) {
      const expected = spec.accountType === 'SWIFT_ACCOUNT' ? 'a fiat currency' : spec.currencies.join(' or ');
      problems.push({ field: 'currency', constraint: 'accountCurrency', message: `a ${spec.accountType} holds ${expected}` });
    }
  }
  if (info && typeof info === 'object') {
    problems.push(...directoryProblems(info));
    problems.push(...counterpartyProblems(info, body.ownershipType, platform));
  }
  return problems;
}

/**
 * Names the rails route by must be ones the directories know: `bankName` from GET /discoveries
 * where the rail routes by institution, a mobile-money `provider` of the currency, a `vaspName`
 * from GET /vasps.
 */
function directoryProblems(info: AccountInfo): FieldError[] {
  const spec = accountTypeSpec(String(info.accountType));
  const problems: FieldError[] = [];
  if (spec?.kind === 'FIAT') {
    const currency = spec.currencies[0]!;
    if (
      spec.bankNameFromDirectory &&
      typeof info.bankName === 'string' &&
      !findReceivingInstitution(currency, info.bankName) &&
      !findMobileMoneyProvider(currency, info.bankName)
    ) {
      problems.push({
        field: 'accountInfo.bankName',
        constraint: 'directory',
        message: `not a receiving institution for ${currency}; use a bankName from GET /discoveries?currency=${currency}`,
      });
    }
    if (typeof info.provider === 'string' && currenciesWithMobileMoneyDirectory().has(currency) && !findMobileMoneyProvider(currency, info.provider)) {
      problems.push({
        field: 'accountInfo.provider',
        constraint: 'directory',
        message: `not a mobile-money provider for ${currency}; see GET /discoveries?currency=${currency}`,
      });
    }
  }
  if (spec?.kind === 'WALLET' && typeof info.vaspName === 'string' && !findVasp(info.vaspName)) {
    problems.push({ field: 'accountInfo.vaspName', constraint: 'directory', message: 'not a VASP of the directory; use a vaspName from GET /vasps' });
  }
  return problems;
}

/** The account information in the rail's form: identifiers normalized, the Lightning alias resolved. */
function canonicalInfo(info: AccountInfo): AccountInfo {
  const spec = accountTypeSpec(info.accountType);
  const out: AccountInfo = { ...info, accountType: info.accountType === LIGHTNING_ALIAS ? 'LIGHTNING' : info.accountType };
  if (spec?.kind === 'FIAT') {
    for (const [field, rule] of Object.entries(spec.fields)) {
      if (rule.check && typeof out[field] === 'string') out[field] = normalizedIdentifier(rule.check, out[field] as string);
    }
    // Institution names as the directory spells them.
    const currency = spec.currencies[0]!;
    if (typeof out.bankName === 'string' && spec.bankNameFromDirectory)
      out.bankName = findReceivingInstitution(currency, out.bankName)?.bankName ?? findMobileMoneyProvider(currency, out.bankName)?.provider ?? out.bankName;
    if (typeof out.provider === 'string') out.provider = findMobileMoneyProvider(currency, out.provider)?.provider ?? out.provider;
    if (out.accountType === 'BRL_ACCOUNT') {
      const key = checkPixKey(String(out.pixKey), out.pixKeyType as PixKeyType);
      if (key.valid) out.pixKey = key.normalized;
    }
  } else if (spec?.kind === 'WALLET') {
    out.address = normalizedIdentifier('wallet', out.address as string, spec.accountType);
    if (typeof out.vaspName === 'string') out.vaspName = findVasp(out.vaspName)?.vaspName ?? out.vaspName;
  } else if (spec?.kind === 'LIGHTNING') {
    if (typeof out.invoice === 'string') out.invoice = normalizedIdentifier('lightningInvoice', out.invoice);
    if (typeof out.bolt12 === 'string') out.bolt12 = normalizedIdentifier('bolt12Offer', out.bolt12);
    if (typeof out.lightningAddress === 'string') out.lightningAddress = normalizedIdentifier('lightningAddress', out.lightningAddress);
  }
  return out;
}

/** The id of a registration: derived from its Idempotency-Key (per platform and owner kind) when it has one. */
function registrationId(platformId: string, owner: Owner, idempotencyKey?: string): string {
  return idempotencyKey
    ? derivedId('ExternalAccount', platformId, owner === 'CUSTOMER' ? 'customer-external-account' : 'platform-external-account', idempotencyKey)
    : newId('ExternalAccount');
}

/**
 * Registers an account: checks the rail (the sandbox may call it invalid), stores it and, for a
 * new default UMA deposit account, clears the previous default in the same transaction (the
 * customer row is locked, so two simultaneous defaults are serialized). Two registrations of the
 * same account race on a unique index: the loser gets 409 DUPLICATE_EXTERNAL_ACCOUNT.
 *
 * With an Idempotency-Key the account id derives from it: a request repeated after its first
 * attempt committed and died before answering finds its account again (not refused as its own
 * duplicate), with no work pending, since the first attempt's verification workflow ran or the
 * verification sweep starts it; starting it again could run the checks twice.
 */
export async function createExternalAccount(
  em: EntityManager,
  input: { platform: Platform; environment: Environment; owner: Owner; body: NewExternalAccount; idempotencyKey?: string },
): Promise<{ account: ExternalAccount; pendingWork: Registration['pendingWork'] }> {
  const { platform, body } = input;
  // The platform's choice of rails is kept beside the account's coordinates (see railsInUse).
  const { paymentRails, ...given } = body.accountInfo;
  const info = canonicalInfo(given);
  const now = new Date();
  const registration = register({ info, ownershipType: body.ownershipType, environment: input.environment, platform, now });
  const id = registrationId(platform.id, input.owner, input.idempotencyKey);
  const customerId = input.owner === 'CUSTOMER' ? body.customerId! : null;
  const identity = { platformId: platform.id, customerId, duplicateKey: duplicateKey(body.currency, info) };
  try {
    return await em.transactional(async (tx) => {
      const earlier = await tx.findOne(ExternalAccount, { id, platformId: platform.id });
      if (earlier) return { account: earlier, pendingWork: {} };
      const defaultUmaDepositAccount = input.owner === 'CUSTOMER' && body.defaultUmaDepositAccount === true;
      if (customerId) {
        const customer = await tx.findOne(Customer, { id: customerId, platformId: platform.id, isDeleted: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!customer) throw DomainError.notFound('Customer');
        if (defaultUmaDepositAccount) {
          await tx.nativeUpdate(
            ExternalAccount,
            { customerId, defaultUmaDepositAccount: true, deletedAt: null },
            { defaultUmaDepositAccount: false, updatedAt: now },
          );
        }
      }
      const account = tx.create(ExternalAccount, {
        id,
        ...identity,
        environment: input.environment,
        currency: body.currency,
        accountType: info.accountType,
        accountInfo: info,
        paymentRails: Array.isArray(paymentRails) ? (paymentRails as string[]) : null,
        status: registration.status,
        ownershipType: body.ownershipType ?? null,
        platformAccountId: body.platformAccountId ?? null,
        defaultUmaDepositAccount,
        beneficiaryVerificationStatus: registration.beneficiaryVerificationStatus,
        beneficiaryVerifiedName: registration.beneficiaryVerifiedName,
        bankValidation: registration.bankValidation,
        bankValidationDueAt: registration.bankValidationDueAt,
        ownershipChallenge: null,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      return { account, pendingWork: registration.pendingWork };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new DomainError('DUPLICATE_EXTERNAL_ACCOUNT', 'This account is already registered for this owner', {
        existingAccountId: await existingDuplicate(em, identity),
      });
    }
    throw err;
  }
}

async function existingDuplicate(em: EntityManager, account: Pick<ExternalAccount, 'platformId' | 'customerId' | 'duplicateKey'>): Promise<string | undefined> {
  const existing = await em
    .fork()
    .findOne(ExternalAccount, { platformId: account.platformId, customerId: account.customerId ?? null, duplicateKey: account.duplicateKey, deletedAt: null });
  return existing?.id;
}

const ownerFilter = (owner: Owner) => (owner === 'CUSTOMER' ? { customerId: { $ne: null } } : { customerId: null });

/** A live account of this platform and owner kind; anything else is 404 (never another platform's). */
export async function findExternalAccount(em: EntityManager, platformId: string, id: string, owner: Owner): Promise<ExternalAccount> {
  const account = await em.findOne(ExternalAccount, { id, platformId, deletedAt: null, ...ownerFilter(owner) } as never);
  if (!account) throw DomainError.notFound('External account');
  return account;
}

export async function listExternalAccounts(
  em: EntityManager,
  platformId: string,
  owner: Owner,
  query: { limit: number; cursor?: string; currency?: string; customerId?: string },
) {
  const where = {
    platformId,
    deletedAt: null,
    ...ownerFilter(owner),
    ...(query.customerId ? { customerId: query.customerId } : {}),
    ...(query.currency ? { currency: query.currency } : {}),
  };
  return listPage(em, ExternalAccount, where as never, query, (rows) => rows.map(externalAccountView));
}

/**
 * Deletes an account for the API: it disappears from lists and lookups and no new quote can use
 * it, while payments that already name it keep reading it. (Trusted beneficiaries, which must be
 * untrusted first with 409 BENEFICIARY_TRUSTED, arrive with strong customer authentication.)
 */
export async function deleteExternalAccount(em: EntityManager, platformId: string, id: string, owner: Owner): Promise<void> {
  await em.transactional(async (tx) => {
    const account = await tx.findOne(ExternalAccount, { id, platformId, deletedAt: null, ...ownerFilter(owner) } as never, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    if (!account) throw DomainError.notFound('External account');
    // SCA: a trusted beneficiary is untrusted first (with the customer's proof), never removed silently.
    if (account.trusted)
      throw new DomainError(
        'BENEFICIARY_TRUSTED',
        'The account is a trusted beneficiary: untrust it with POST …/untrust and …/untrust/confirm before deleting it',
      );
    const now = new Date();
    account.deletedAt = now;
    account.defaultUmaDepositAccount = false;
    account.updatedAt = now;
  });
}
