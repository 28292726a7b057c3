import type { InternalAccountType } from '../entities/InternalAccount';
import { currency } from '../../../domain/currencies';

/** One internal account a holder should have. */
export interface AccountSpec {
  type: InternalAccountType;
  currency: string;
}

/** The currency an embedded wallet (the sandbox's "global account") holds. */
export const EMBEDDED_WALLET_CURRENCY = 'USDB';

/** The kind of balance a currency is held in, unless an embedded wallet is asked for. */
export function accountTypeFor(code: string): InternalAccountType {
  return currency(code).kind === 'CRYPTO' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/** What the account plans read of a platform. */
export interface PlatformTraits {
  isRegulatedFinancialInstitution: boolean;
  embeddedWalletsSupported: boolean;
  supportedCurrencies: { currencyCode: string }[];
}

/** Whether a platform's customers get an embedded wallet: wallets enabled, or USDB supported. */
export function customersGetEmbeddedWallet(platform: PlatformTraits): boolean {
  return platform.embeddedWalletsSupported || platform.supportedCurrencies.some((c) => c.currencyCode === EMBEDDED_WALLET_CURRENCY);
}

/** The platform's own accounts: one per supported currency. */
export function platformAccountPlan(platform: { supportedCurrencies: { currencyCode: string }[] }): AccountSpec[] {
  return dedupeAccountPlan(platform.supportedCurrencies.map((c) => ({ type: accountTypeFor(c.currencyCode), currency: c.currencyCode })));
}

/** The planned accounts that are not held yet, in plan order. */
export function missingAccounts(plan: AccountSpec[], held: AccountSpec[]): AccountSpec[] {
  const have = new Set(held.map(key));
  return plan.filter((spec) => !have.has(key(spec)));
}

function key(spec: AccountSpec): string {
  return `${spec.type}:${spec.currency}`;
}

/** The plan without repeats, in first-seen order. */
export function dedupeAccountPlan(plan: AccountSpec[]): AccountSpec[] {
  const seen = new Set<string>();
  return plan.filter((spec) => !seen.has(key(spec)) && seen.add(key(spec)));
}

export interface InternalAccountRow {
  id: string;
  platformId: string;
  customerId: string | null;
  type: InternalAccountType;
  currency: string;
}

export interface LedgerAccountRow {
  id: string;
  platformId: string;
  kind: string;
  currency: string;
}

export interface InternalAccountFinding {
  kind: 'ACCOUNT_WITHOUT_LEDGER' | 'LEDGER_MISMATCH' | 'DUPLICATE_ACCOUNT' | 'INVALID_EMBEDDED_WALLET';
  subject: string;
  detail: string;
}

/**
 * The internal-account half of the ledger audit: every internal account is backed by an
 * INTERNAL_ACCOUNT ledger account of the same platform and currency, a customer holds at most
 * one account per type and currency, and embedded wallets are customer-owned USDB accounts.
 */
export function auditInternalAccounts(accounts: InternalAccountRow[], ledgers: LedgerAccountRow[]): InternalAccountFinding[] {
  const findings: InternalAccountFinding[] = [];
  const ledgerById = new Map(ledgers.map((l) => [l.id, l]));
  const seen = new Map<string, string>();
  for (const a of accounts) {
    const ledger = ledgerById.get(a.id);
    if (!ledger) {
      findings.push({ kind: 'ACCOUNT_WITHOUT_LEDGER', subject: a.id, detail: 'no ledger account holds its money' });
    } else if (ledger.kind !== 'INTERNAL_ACCOUNT' || ledger.currency !== a.currency || ledger.platformId !== a.platformId) {
      findings.push({
        kind: 'LEDGER_MISMATCH',
        subject: a.id,
        detail: `account ${a.platformId} ${a.currency}, ledger ${ledger.platformId} ${ledger.currency} ${ledger.kind}`,
      });
    }
    if (a.type === 'EMBEDDED_WALLET' && (a.currency !== EMBEDDED_WALLET_CURRENCY || !a.customerId)) {
      findings.push({ kind: 'INVALID_EMBEDDED_WALLET', subject: a.id, detail: `embedded wallet in ${a.currency}${a.customerId ? '' : ' without a customer'}` });
    }
    if (a.customerId) {
      const k = `${a.customerId}:${a.type}:${a.currency}`;
      const first = seen.get(k);
      if (first) findings.push({ kind: 'DUPLICATE_ACCOUNT', subject: a.id, detail: `same customer, type and currency as ${first}` });
      else seen.set(k, a.id);
    }
  }
  return findings;
}
