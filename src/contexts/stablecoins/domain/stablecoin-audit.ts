import type { Minor } from '../../../domain/money';

/** A break between a stablecoin's ledger accounts and the operations that explain them. */
export interface StablecoinLedgerFinding {
  kind: 'STABLECOIN_RESERVE_MISMATCH' | 'STABLECOIN_SUPPLY_MISMATCH';
  subject: string;
  detail: string;
}

/**
 * The stablecoin side of the ledger audit. Per coin, RESERVE must hold exactly what its completed
 * mints brought in less what its completed burns paid out (never less than zero), and SUPPLY the
 * same, negated: what is outstanding.
 */
export function auditStablecoinLedger(input: {
  coins: { platformId: string; stablecoinId: string; completedNet: Minor }[];
  balances: Map<string, Minor>;
  reserveAccountId: (platformId: string, stablecoinId: string) => string;
  supplyAccountId: (platformId: string, stablecoinId: string) => string;
}): StablecoinLedgerFinding[] {
  const findings: StablecoinLedgerFinding[] = [];
  for (const c of input.coins) {
    const reserve = input.reserveAccountId(c.platformId, c.stablecoinId);
    const supply = input.supplyAccountId(c.platformId, c.stablecoinId);
    const reserveBalance = input.balances.get(reserve) ?? 0n;
    const supplyBalance = input.balances.get(supply) ?? 0n;
    if (reserveBalance !== c.completedNet || reserveBalance < 0n)
      findings.push({
        kind: 'STABLECOIN_RESERVE_MISMATCH',
        subject: reserve,
        detail: `balance ${reserveBalance} but completed mints less burns come to ${c.completedNet}`,
      });
    if (supplyBalance !== -c.completedNet)
      findings.push({
        kind: 'STABLECOIN_SUPPLY_MISMATCH',
        subject: supply,
        detail: `balance ${supplyBalance} but the outstanding supply is ${c.completedNet}`,
      });
  }
  return findings;
}
