import type { EntityManager } from '@mikro-orm/postgresql';
import { runLedgerAuditWith, type LedgerAuditContributor } from './ledger';
import { cardLedgerAudit } from './cards';
import { stablecoinLedgerAudit } from './stablecoins';

/** Every context that posts to ledger accounts of its own checks them in the audit; the ledger itself knows none of them. */
export const LEDGER_AUDIT_CONTRIBUTORS: readonly LedgerAuditContributor[] = [cardLedgerAudit, stablecoinLedgerAudit];

/** The whole ledger audit: the ledger's own checks and every context's (see runLedgerAuditWith). */
export function runLedgerAudit(em: EntityManager) {
  return runLedgerAuditWith(em, LEDGER_AUDIT_CONTRIBUTORS);
}
