import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { BeneficialOwner, Customer } from '../db/entities';
import type { OwnerPersonalInfo } from '../db/entities/BeneficialOwner';
import { ownerIdentityProblems } from '../domain/beneficial-owners';
import { ApiError, type FieldError } from '../domain/errors';
import { newId } from '../domain/ids';
import { ownerKycStatus, ownershipExceeds100 } from '../domain/verification-sandbox';
import { encrypt } from '../security/secrets';

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

/** The platform's active business customer, locked for the owner change; 404 or 400 otherwise. */
async function businessCustomer(em: EntityManager, platformId: string, customerId: string): Promise<Customer> {
  const customer = await em.findOne(Customer, { id: customerId, platformId, isDeleted: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!customer) throw ApiError.notFound('Customer');
  if (customer.customerType !== 'BUSINESS') {
    throw ApiError.invalidInput([{ field: 'customerId', constraint: 'businessCustomer', message: 'beneficial owners belong to BUSINESS customers only' }]);
  }
  return customer;
}

async function otherShares(em: EntityManager, customerId: string, exceptId?: string): Promise<number[]> {
  const owners = await em.find(BeneficialOwner, { customerId, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
  return owners.map((o) => o.ownershipPercentage);
}

const tooMuch = (): FieldError => ({ field: 'ownershipPercentage', constraint: 'maximum', message: "the owners' shares of the business would add up to more than 100 %" });

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
    if (ownershipExceeds100(await otherShares(tx, customer.id), input.ownershipPercentage)) throw ApiError.invalidInput([tooMuch()]);
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
export async function updateBeneficialOwner(em: EntityManager, masterKey: Buffer, platformId: string, ownerId: string, patch: BeneficialOwnerPatch): Promise<BeneficialOwner> {
  return em.transactional(async (tx) => {
    const owner = await tx.findOne(BeneficialOwner, { id: ownerId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!owner) throw ApiError.notFound('Beneficial owner');
    const errors: FieldError[] = [];
    const [infoPatch, identifier] = splitIdentifier(patch.personalInfo ?? {});
    const merged: OwnerPersonalInfo = { ...owner.personalInfo, ...infoPatch };
    // A changed idType needs its identifier again: the sealed one belonged to the old type.
    if (infoPatch.idType && infoPatch.idType !== owner.personalInfo.idType && identifier === undefined) {
      errors.push({ field: 'personalInfo.identifier', constraint: 'required', message: 'send the identifier together with a new idType' });
    }
    errors.push(...ownerIdentityProblems({ ...merged, identifier }));
    if (patch.ownershipPercentage !== undefined && ownershipExceeds100(await otherShares(tx, owner.customerId, owner.id), patch.ownershipPercentage)) errors.push(tooMuch());
    if (errors.length > 0) throw ApiError.invalidInput(errors);
    if (patch.roles) owner.roles = patch.roles;
    if (patch.ownershipPercentage !== undefined) owner.ownershipPercentage = patch.ownershipPercentage;
    owner.personalInfo = withIssuingCountry(merged);
    if (identifier !== undefined) owner.identifierEncrypted = encrypt(masterKey, identifier);
    owner.updatedAt = new Date();
    await tx.flush();
    return owner;
  });
}
