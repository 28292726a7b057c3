import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { BeneficialOwner, Customer } from '../entities';
import type { OwnerPersonalInfo } from '../entities/BeneficialOwner';
import { ownerIdentityProblems, type OwnerIdentity } from '../domain/beneficial-owners';
import { DomainError, type FieldError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { ownerKycStatus, ownershipExceeds100 } from '../domain/verification-sandbox';
import { encrypt } from '../../../security/secrets';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { beneficialOwnerView } from './verification-views';

export interface OwnerPersonalInfoInput extends OwnerPersonalInfo {
  identifier: string;
}

export interface NewBeneficialOwner {
  customerId: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: OwnerPersonalInfoInput;
}

export interface BeneficialOwnerPatch {
  roles?: string[];
  ownershipPercentage?: number;
  personalInfo?: Partial<OwnerPersonalInfoInput>;
}

const notBusiness = (): FieldError => ({ field: 'customerId', constraint: 'businessCustomer', message: 'beneficial owners belong to BUSINESS customers only' });

/** The platform's active business customer, locked for the owner change; 404 or 400 otherwise. */
async function businessCustomer(em: EntityManager, platformId: string, customerId: string): Promise<Customer> {
  const customer = await em.findOne(Customer, { id: customerId, platformId, isDeleted: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!customer) throw DomainError.notFound('Customer');
  if (customer.customerType !== 'BUSINESS') throw DomainError.invalidInput([notBusiness()]);
  return customer;
}

async function otherShares(em: EntityManager, customerId: string, exceptId?: string): Promise<number[]> {
  const owners = await em.find(BeneficialOwner, { customerId, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
  return owners.map((o) => o.ownershipPercentage);
}

const tooMuch = (): FieldError => ({
  field: 'ownershipPercentage',
  constraint: 'maximum',
  message: "the owners' shares of the business would add up to more than 100 %",
});

/**
 * Problems of a new owner that need stored data: the customer must be a business, and the
 * owners' shares may not exceed 100 %. An unknown customer gives none here (the create is 404).
 * Run with the schema errors (a route check), so that one response lists every problem; the
 * create repeats them under the customer's row lock.
 */
export async function ownerCreateProblems(
  em: EntityManager,
  platformId: string,
  input: { customerId?: unknown; ownershipPercentage?: number },
): Promise<FieldError[]> {
  if (typeof input.customerId !== 'string') return [];
  const customer = await em.findOne(Customer, { id: input.customerId, platformId, isDeleted: false });
  if (!customer) return [];
  if (customer.customerType !== 'BUSINESS') return [notBusiness()];
  if (input.ownershipPercentage !== undefined && ownershipExceeds100(await otherShares(em, customer.id), input.ownershipPercentage)) return [tooMuch()];
  return [];
}

export interface OwnerChange {
  ownershipPercentage?: number;
  /** The identity fields being written (judging raw input: only the well-formed ones). */
  identity: OwnerIdentity;
  /** Whether the request carries an identifier at all. */
  identifierSent: boolean;
}

/**
 * Problems of a change to an owner judged with what is stored: the identity rules on the merged
 * personal info, a new idType without its identifier (the sealed one belonged to the old type),
 * the owners' shares.
 */
export async function ownerChangeProblems(em: EntityManager, owner: BeneficialOwner, change: OwnerChange): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const { identifier, ...identity } = change.identity;
  if (identity.idType && identity.idType !== owner.personalInfo.idType && !change.identifierSent) {
    errors.push({ field: 'personalInfo.identifier', constraint: 'required', message: 'send the identifier together with a new idType' });
  }
  errors.push(...ownerIdentityProblems({ ...owner.personalInfo, ...identity, identifier }));
  if (change.ownershipPercentage !== undefined && ownershipExceeds100(await otherShares(em, owner.customerId, owner.id), change.ownershipPercentage))
    errors.push(tooMuch());
  return errors;
}

function splitIdentifier<T extends { identifier?: string }>(info: T): [Omit<T, 'identifier'>, string | undefined] {
  const { identifier, ...rest } = info;
  return [rest, identifier];
}

/** SSNs and ITINs are issued by the US: the issuing country defaults to US for them. */
function withIssuingCountry(info: OwnerPersonalInfo): OwnerPersonalInfo {
  return (info.idType === 'SSN' || info.idType === 'ITIN') && !info.countryOfIssuance ? { ...info, countryOfIssuance: 'US' } : info;
}

/**
 * Adds an owner to a business customer. The identifier is sealed with the master key; the
 * owner's KYC status is UNVERIFIED until the business resolves (then by the sandbox lastName rule).
 */
export async function createBeneficialOwner(em: EntityManager, masterKey: Buffer, platformId: string, input: NewBeneficialOwner): Promise<BeneficialOwner> {
  return em.transactional(async (tx) => {
    const customer = await businessCustomer(tx, platformId, input.customerId);
    if (ownershipExceeds100(await otherShares(tx, customer.id), input.ownershipPercentage)) throw DomainError.invalidInput([tooMuch()]);
    const [personalInfo, identifier] = splitIdentifier(input.personalInfo);
    const now = new Date();
    const owner = tx.create(BeneficialOwner, {
      id: newId('BeneficialOwner'),
      platformId,
      customerId: customer.id,
      roles: input.roles,
      ownershipPercentage: input.ownershipPercentage,
      personalInfo: withIssuingCountry(personalInfo),
      identifierEncrypted: identifier ? encrypt(masterKey, identifier) : null,
      kycStatus: ownerKycStatus(customer.kycStatus, personalInfo.lastName),
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return owner;
  });
}

/**
 * Partially updates an owner: personalInfo fields merge (an address replaces the address), the
 * identity rules are checked on the merged result, a new identifier is sealed.
 */
export async function updateBeneficialOwner(
  em: EntityManager,
  masterKey: Buffer,
  platformId: string,
  ownerId: string,
  patch: BeneficialOwnerPatch,
): Promise<BeneficialOwner> {
  return em.transactional(async (tx) => {
    const owner = await tx.findOne(BeneficialOwner, { id: ownerId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!owner) throw DomainError.notFound('Beneficial owner');
    const [infoPatch, identifier] = splitIdentifier(patch.personalInfo ?? {});
    const merged: OwnerPersonalInfo = { ...owner.personalInfo, ...infoPatch };
    const errors = await ownerChangeProblems(tx, owner, {
      ...(patch.ownershipPercentage !== undefined ? { ownershipPercentage: patch.ownershipPercentage } : {}),
      identity: patch.personalInfo ?? {},
      identifierSent: identifier !== undefined,
    });
    if (errors.length > 0) throw DomainError.invalidInput(errors);
    if (patch.roles) owner.roles = patch.roles;
    if (patch.ownershipPercentage !== undefined) owner.ownershipPercentage = patch.ownershipPercentage;
    owner.personalInfo = withIssuingCountry(merged);
    if (identifier !== undefined) owner.identifierEncrypted = encrypt(masterKey, identifier);
    owner.updatedAt = new Date();
    await tx.flush();
    return owner;
  });
}

/** One of the platform's beneficial owners, or 404. */
export async function findBeneficialOwner(em: EntityManager, platformId: string, beneficialOwnerId: string): Promise<BeneficialOwner> {
  const owner = await em.findOne(BeneficialOwner, { id: beneficialOwnerId, platformId });
  if (!owner) throw DomainError.notFound('Beneficial owner');
  return owner;
}

/** GET /beneficial-owners: one business customer's owners, a page at a time. */
export async function listBeneficialOwners(
  em: EntityManager,
  platformId: string,
  query: { limit: number; cursor?: string; sortOrder?: SortOrder; customerId: string },
) {
  return listPage(em, BeneficialOwner, { platformId, customerId: query.customerId }, query, (rows) => rows.map(beneficialOwnerView));
}
