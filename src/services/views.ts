import type { Customer, InternalAccount, LedgerAccount, Platform, Transaction } from '../db/entities';
import { endUserTermsConsentOf } from '../domain/agreements';
import { currencyView } from '../domain/currencies';
import { INDIVIDUAL_PROFILE_KEYS } from '../domain/customer-rules';

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

export function fundingInstructions(account: InternalAccount) {
  const c = currencyView(account.currency);
  const reference = account.fundingReference;
  if (account.currency === 'USD') {
    return [
      {
        instructionsNotes: `Include the reference ${reference} so the deposit reaches this account.`,
        accountOrWalletInfo: { accountType: 'USD_ACCOUNT', reference, accountNumber: depositAccountNumber(reference), routingNumber: '021000021', bankName: 'Sandbox Bank, N.A.' },
      },
    ];
  }
  if (account.currency === 'EUR') {
    return [
      {
        instructionsNotes: `Include the reference ${reference} so the deposit reaches this account.`,
        accountOrWalletInfo: { accountType: 'EUR_ACCOUNT', reference, iban: `DE89370400440${depositAccountNumber(reference).slice(0, 9)}`, bankName: 'Sandbox Bank SE' },
      },
    ];
  }
  if (['USDC', 'USDB', 'USDT', 'BTC'].includes(c.code)) {
    return [{ accountOrWalletInfo: { accountType: 'SPARK_WALLET', assetType: c.code, address: `spark1sandbox${reference.toLowerCase()}` } }];
  }
  return [
    {
      instructionsNotes: `Quote the reference ${reference} with your ${c.code} deposit.`,
      accountOrWalletInfo: { accountType: 'SWIFT_ACCOUNT', reference, swiftCode: 'SANDXXXXXXX', accountNumber: depositAccountNumber(reference), bankName: 'Sandbox Bank' },
    },
  ];
}

/** A stable, per-account deposit account number derived from the unique reference. */
function depositAccountNumber(reference: string): string {
  let n = 0n;
  for (const ch of reference) n = (n * 31n + BigInt(ch.charCodeAt(0))) % 10_000_000_000n;
  return n.toString().padStart(10, '0');
}

export function internalAccountView(account: InternalAccount, ledger: LedgerAccount) {
  const currency = currencyView(account.currency);
  return {
    id: account.id,
    ...(account.customerId ? { customerId: account.customerId } : {}),
    type: account.type,
    status: account.status,
    balance: { amount: ledger.balance, currency },
    totalBalance: { amount: ledger.balance + ledger.held, currency },
    fundingPaymentInstructions: fundingInstructions(account),
    createdAt: account.createdAt.toISOString(),
    updatedAt: (ledger.updatedAt > account.updatedAt ? ledger.updatedAt : account.updatedAt).toISOString(),
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
