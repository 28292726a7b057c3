import type { Minor } from '../../../domain/money';

/** A break between the card ledger accounts and the card transactions that explain them. */
export interface CardLedgerFinding {
  kind: 'CARD_HOLDS_MISMATCH' | 'CARD_NETWORK_MISMATCH' | 'CARD_HOLD_NOT_SHOWN';
  subject: string;
  detail: string;
}

export interface CardTotals {
  platformId: string;
  currency: string;
  /** Σ held of open card transactions. */
  held: Minor;
  /** Σ (settled − refunded) of debits minus Σ settled of credits: what the network kept. */
  toNetwork: Minor;
}

/**
 * The card side of the ledger audit. Per platform and currency, CARD_HOLDS must hold exactly
 * what open authorizations hold and CARD_NETWORK exactly what card transactions settled net of
 * returns and credits; every funding account must show at least its card holds as `held`.
 */
export function auditCardLedger(input: {
  totals: CardTotals[];
  balances: Map<string, Minor>;
  holdsAccountId: (platformId: string, currency: string) => string;
  networkAccountId: (platformId: string, currency: string) => string;
  fundingHolds: { accountId: string; cardHeld: Minor; accountHeld: Minor }[];
}): CardLedgerFinding[] {
  const findings: CardLedgerFinding[] = [];
  for (const t of input.totals) {
    const holds = input.holdsAccountId(t.platformId, t.currency);
    const network = input.networkAccountId(t.platformId, t.currency);
    const holdsBalance = input.balances.get(holds) ?? 0n;
    const networkBalance = input.balances.get(network) ?? 0n;
    if (holdsBalance !== t.held)
      findings.push({ kind: 'CARD_HOLDS_MISMATCH', subject: holds, detail: `balance ${holdsBalance} but open card authorizations hold ${t.held}` });
    if (networkBalance !== t.toNetwork)
      findings.push({ kind: 'CARD_NETWORK_MISMATCH', subject: network, detail: `balance ${networkBalance} but card transactions settled ${t.toNetwork} net` });
  }
  for (const f of input.fundingHolds) {
    if (f.accountHeld < f.cardHeld)
      findings.push({ kind: 'CARD_HOLD_NOT_SHOWN', subject: f.accountId, detail: `held ${f.accountHeld} but its card authorizations hold ${f.cardHeld}` });
  }
  return findings;
}
