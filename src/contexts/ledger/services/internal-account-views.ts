import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { InternalAccount, LedgerAccount } from '../entities';
import type { InternalAccountType } from '../entities/InternalAccount';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { currency as currencyOf, currencyView } from '../../../domain/currencies';
import { totalBalance } from '../domain/ledger';
import { DEFAULT_DEPOSIT_NETWORK, type DepositNetwork } from '../../../domain/deposit-networks';
import { depositWalletInfo } from './deposit-addresses';

export { sparkAddress } from './deposit-addresses';

/**
 * Public representation of internal accounts: balances from the ledger, funding instructions
 * derived from the account's unique reference (so they are stable and never shared by two
 * accounts). Each `accountOrWalletInfo` follows one of the reference's PaymentInstructions
 * variants.
 */

const NOTE = (reference: string) => `Include the reference ${reference} with the transfer so the funds reach this account.`;

/** `n` decimal digits derived from the reference; distinct salts give independent numbers. */
function digits(reference: string, salt: string, n: number): string {
  const hex = createHash('sha256').update(`${salt}\u0000${reference}`).digest('hex');
  return (BigInt(`0x${hex}`) % 10n ** BigInt(n)).toString().padStart(n, '0');
}

/** An IBAN with correct ISO 7064 check digits. */
function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  const check = 98n - (BigInt(numeric) % 97n);
  return `${country}${check.toString().padStart(2, '0')}${bban}`;
}

/** An 18-digit CLABE with its weighted check digit. */
function clabe(reference: string): string {
  const body = `646180${digits(reference, 'clabe', 11)}`;
  const weights = [3, 7, 1];
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * weights[i % 3]!) % 10), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * What funding instructions are derived from: an internal account, or anything shaped like one
 * (a quote's real-time funding, which names the crypto network it is paid on).
 */
export type FundingTarget = Pick<InternalAccount, 'type' | 'currency' | 'fundingReference' | 'customerId'> & { cryptoNetwork?: DepositNetwork | null };

function accountOrWalletInfo(account: FundingTarget): Record<string, unknown> {
  const reference = account.fundingReference;
  if (account.type === 'EMBEDDED_WALLET') {
    // Incoming funds need no signature: they are sent to the wallet's Spark address.
    return depositWalletInfo('SPARK', account.currency, reference);
  }
  // A named network wins; otherwise a crypto currency is deposited on its usual chain.
  const network = account.cryptoNetwork ?? DEFAULT_DEPOSIT_NETWORK[account.currency];
  if (network) return depositWalletInfo(network, account.currency, reference);
  switch (account.currency) {
    case 'USD':
      return {
        accountType: 'USD_ACCOUNT',
        accountNumber: digits(reference, 'usd', 12),
        routingNumber: '110000000',
        bankName: 'Sandbox Bank, N.A.',
        bankAccountType: 'CHECKING',
        paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
        reference,
      };
    case 'EUR':
      return {
        accountType: 'EUR_ACCOUNT',
        iban: iban('DE', `10010010${digits(reference, 'eur', 10)}`),
        swiftCode: 'SBOXDEFFXXX',
        paymentRails: ['SEPA', 'SEPA_INSTANT'],
        reference,
      };
    case 'GBP':
      return { accountType: 'GBP_ACCOUNT', sortCode: '040075', accountNumber: digits(reference, 'gbp', 8), paymentRails: ['FASTER_PAYMENTS'], reference };
    case 'MXN':
      return { accountType: 'MXN_ACCOUNT', clabeNumber: clabe(reference), paymentRails: ['SPEI'], reference };
    default:
      return {
        accountType: 'SWIFT_ACCOUNT',
        country: 'US',
        swiftCode: 'SBOXUS33XXX',
        bankName: 'Sandbox Bank, N.A.',
        accountNumber: digits(reference, 'swift', 12),
        accountHolderName: `Payments Service FBO ${reference}`,
        paymentRails: ['SWIFT'],
        reference,
      };
  }
}

/** How to pay into the account; one entry, unique to the account. */
export function fundingInstructions(account: FundingTarget) {
  const info = accountOrWalletInfo(account);
  const isWallet = !('reference' in info);
  return [
    {
      instructionsNotes: isWallet
        ? `Send only ${currencyOf(account.currency).code}${account.cryptoNetwork ? ` on ${account.cryptoNetwork}` : ''} to this address; it belongs to this account alone.`
        : NOTE(account.fundingReference),
      isPlatformAccount: !account.customerId,
      accountOrWalletInfo: info,
    },
  ];
}

export function internalAccountView(account: InternalAccount, ledger: LedgerAccount) {
  const currency = currencyView(account.currency);
  return {
    id: account.id,
    ...(account.customerId ? { customerId: account.customerId } : {}),
    type: account.type,
    status: account.status,
    balance: { amount: ledger.balance, currency },
    totalBalance: { amount: totalBalance(ledger), currency },
    fundingPaymentInstructions: fundingInstructions(account),
    ...(account.type === 'EMBEDDED_WALLET' ? { privateEnabled: account.privateEnabled ?? false } : {}),
    createdAt: account.createdAt.toISOString(),
    updatedAt: (ledger.updatedAt > account.updatedAt ? ledger.updatedAt : account.updatedAt).toISOString(),
  };
}

/** Views of several accounts with their balances, read in one query. */
export async function internalAccountViews(em: EntityManager, accounts: InternalAccount[]) {
  if (accounts.length === 0) return [];
  const ledgers = await em.find(LedgerAccount, { id: { $in: accounts.map((a) => a.id) } }, { refresh: true });
  const byId = new Map(ledgers.map((l) => [l.id, l]));
  return accounts.map((a) => internalAccountView(a, byId.get(a.id)!));
}

/** GET /customers/internal-accounts: customers' accounts (one customer's when named), newest first, a page at a time. */
export async function listCustomerInternalAccounts(
  em: EntityManager,
  platformId: string,
  query: {
    limit: number;
    cursor?: string | undefined;
    sortOrder?: SortOrder | undefined;
    customerId?: string | undefined;
    currency?: string | undefined;
    type?: InternalAccountType | undefined;
  },
) {
  const where = {
    platformId,
    customerId: query.customerId ?? { $ne: null },
    ...(query.currency ? { currency: query.currency } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
  return listPage(em, InternalAccount, where, query, (rows) => internalAccountViews(em, rows));
}

/** GET /platform/internal-accounts: the platform's own accounts, oldest first (not paginated). */
export async function listPlatformInternalAccounts(
  em: EntityManager,
  platformId: string,
  filter: { currency?: string | undefined; type?: InternalAccountType | undefined },
) {
  const accounts = await em.find(
    InternalAccount,
    {
      platformId,
      customerId: null,
      ...(filter.currency ? { currency: filter.currency } : {}),
      ...(filter.type ? { type: filter.type } : {}),
    },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return internalAccountViews(em, accounts);
}
