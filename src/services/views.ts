import type { Customer, Platform, Transaction } from '../db/entities';
import { currencyView } from '../domain/currencies';

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

export function customerView(c: Customer) {
  return {
    id: c.id,
    platformCustomerId: c.platformCustomerId,
    customerType: c.customerType,
    umaAddress: c.umaAddress,
    kycStatus: c.kycStatus,
    ...(c.regionCode ? { region: c.regionCode } : {}),
    currencies: c.currencies,
    ...(c.email ? { email: c.email } : {}),
    ...(c.phoneNumber ? { phoneNumber: c.phoneNumber } : {}),
    ...(c.fullName ? { fullName: c.fullName } : {}),
    ...(c.birthDate ? { birthDate: c.birthDate } : {}),
    ...(c.nationality ? { nationality: c.nationality } : {}),
    ...(c.address ? { address: c.address } : {}),
    ...(c.contactVerification ? { contactVerification: c.contactVerification } : {}),
    isDeleted: c.isDeleted,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
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
