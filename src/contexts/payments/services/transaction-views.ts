import type { Customer } from '../../customers/entities';
import type { Platform } from '../../platforms/entities';
import type { Transaction } from '../entities';
import { endUserTermsConsentOf } from '../../customers/domain/agreements';
import { currencyView } from '../../../domain/currencies';
import { INDIVIDUAL_PROFILE_KEYS } from '../../customers/domain/customer-rules';

/** Public representations of stored rows. Amounts stay bigint here; the JSON writer emits them exactly. */

export function platformConfigView(p: Platform) {
  return {
    id: p.id,
    name: p.name,
    umaDomain: p.umaDomain ?? undefined,
    webhookEndpoint: p.webhookEndpoint ?? undefined,
    supportedCurrencies: p.supportedCurrencies,
    isRegulatedFinancialInstitution: p.isRegulatedFinancialInstitution,
    region: p.region,
    embeddedWalletsSupported: p.embeddedWalletsSupported,
    counterpartyInformationRequired: p.counterpartyInformationRequired,
    embeddedWalletConfig: p.embeddedWalletConfig ?? undefined,
    feeConfigs: p.feeConfigs,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

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

export function transactionView(t: Transaction, platformCustomerId: string | null) {
  return {
    id: t.id,
    status: t.status,
    type: t.type,
    direction: t.direction,
    source: t.source,
    destination: t.destination,
    customerId: t.customerId ?? undefined,
    platformCustomerId: platformCustomerId ?? undefined,
    receivedAmount: { amount: t.receivedAmount, currency: currencyView(t.receivedCurrency) },
    ...(t.failureReason ? { failureReason: t.failureReason } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.settledAt ? { settledAt: t.settledAt.toISOString() } : {}),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
