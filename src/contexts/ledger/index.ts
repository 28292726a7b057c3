// The ledger's public face: what other contexts may use of it (its api/ stays private).
export {
  type AccountSpec,
  accountTypeFor,
  customersGetEmbeddedWallet,
  dedupeAccountPlan,
  EMBEDDED_WALLET_CURRENCY,
  type PlatformTraits,
} from './domain/internal-accounts';
export { type PostingLine } from './domain/ledger';
export { TransactionLedgerEntriesSchema } from './schemas/ledger-entry-schemas';
export { transactionLedgerEntries, type LedgerEntryView } from './services/ledger-entries';
export { InternalAccount, JournalEntry, LedgerAccount } from './entities';
export { InternalAccountListQuerySchema, InternalAccountListSchema, InternalAccountSchema, SandboxFundRequestSchema } from './schemas/internal-account-schemas';
export { type LedgerAuditContributor } from './services/audit';
export { holdFunds, receiveFunding, refundSettled, releaseHold, returnShortfallAccountId, reverseCollectedCredit, settleHold } from './services/holds';
export { fundingInstructions, internalAccountView, internalAccountViews } from './services/internal-account-views';
export { findInternalAccount } from './services/internal-accounts';
export { ensureSystemAccountSet, ledgerBalance, postEntry } from './services/ledger';
export { openPlannedAccounts, provisionPlatformAccounts, recordOpenedAccountEvents } from './services/provisioning';
export { announceOpenedAccounts, type AnnounceContext } from './services/account-announcements';
// The audit that src/contexts/ledger-audit.ts runs with every contributing context's checks.
export { runLedgerAuditWith } from './services/audit';
