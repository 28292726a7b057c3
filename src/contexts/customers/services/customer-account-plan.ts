// In services/, not domain/: it combines the ledger's account rules (through its face) with the customer's onboarding rule, and domain/ imports no context.
import type { KycStatus } from '../entities/Customer';
import { mayHoldBalances, type AgreementConsent } from '../domain/onboarding';
import { accountTypeFor, customersGetEmbeddedWallet, dedupeAccountPlan, EMBEDDED_WALLET_CURRENCY, type AccountSpec, type PlatformTraits } from '../../ledger';

interface CustomerTraits {
  kycStatus: KycStatus;
  agreementConsents: AgreementConsent[];
  currencies: string[];
}

/**
 * Every account a customer should hold: nothing until the customer may hold balances
 * (mayHoldBalances); then one INTERNAL_FIAT / INTERNAL_CRYPTO account per enabled currency,
 * plus one USDB EMBEDDED_WALLET when the platform supports embedded wallets or USDB (the
 * reference provisions the wallet, called a global account in the sandbox, whenever the
 * platform supports USDB).
 */
export function customerAccountPlan(platform: PlatformTraits, customer: CustomerTraits): AccountSpec[] {
  if (!mayHoldBalances(platform, customer)) return [];
  const plan: AccountSpec[] = customer.currencies.map((code) => ({ type: accountTypeFor(code), currency: code }));
  if (customersGetEmbeddedWallet(platform)) plan.push({ type: 'EMBEDDED_WALLET', currency: EMBEDDED_WALLET_CURRENCY });
  return dedupeAccountPlan(plan);
}
