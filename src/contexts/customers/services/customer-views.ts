import type { Customer } from '../entities/index';
import { endUserTermsConsentOf } from '../domain/agreements';
import { INDIVIDUAL_PROFILE_KEYS } from '../domain/customer-rules';

/**
 * A customer as GET returns it: individual or business by customerType. The tax identification
 * number is never part of it (only its type and issuing country).
 */
export function customerView(c: Customer) {
  const profile = c.profile ?? {};
  const common = {
    id: c.id,
    platformCustomerId: c.platformCustomerId,
    umaAddress: c.umaAddress,
    ...(c.regionCode ? { region: c.regionCode } : {}),
    currencies: c.currencies,
    ...(c.email ? { email: c.email } : {}),
    ...(c.phoneNumber ? { phoneNumber: c.phoneNumber } : {}),
    ...(c.agreementConsents.length > 0 ? { agreementConsents: c.agreementConsents } : {}),
    ...optional('endUserTermsConsent', endUserTermsConsentOf(c.agreementConsents)),
    ...(c.contactVerification ? { contactVerification: c.contactVerification } : {}),
    isDeleted: c.isDeleted,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
  if (c.customerType === 'BUSINESS') {
    return {
      customerType: 'BUSINESS' as const,
      kybStatus: c.kycStatus,
      ...common,
      ...(c.address ? { address: c.address } : {}),
      businessInfo: (profile.businessInfo ?? {}) as Record<string, unknown>,
    };
  }
  return {
    customerType: 'INDIVIDUAL' as const,
    kycStatus: c.kycStatus,
    ...common,
    ...(c.fullName ? { fullName: c.fullName } : {}),
    ...(c.birthDate ? { birthDate: c.birthDate } : {}),
    ...(c.nationality ? { nationality: c.nationality } : {}),
    ...(c.address ? { address: c.address } : {}),
    ...Object.fromEntries(INDIVIDUAL_PROFILE_KEYS.filter((k) => profile[k] !== undefined && profile[k] !== null).map((k) => [k, profile[k]])),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
