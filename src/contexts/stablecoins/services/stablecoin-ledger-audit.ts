import type { LedgerAuditContributor } from '../../ledger';
import { auditStablecoinLedger } from '../domain/stablecoin-audit';
import { reserveAccountId, supplyAccountId } from './stablecoin-ledger';

/** The stablecoin part of the ledger audit: each coin's reserve and supply accounts against its completed operations. */
export const stablecoinLedgerAudit: LedgerAuditContributor = async ({ execute, balances }) => {
  const coinTotals = await execute<{ platform_id: string; id: string; completed_net: string }[]>(
    `select c.platform_id, c.id,
       coalesce(sum(case o.operation_type when 'MINT' then o.fiat_amount else -o.fiat_amount end) filter (where o.status = 'COMPLETED'), 0)::text as completed_net
     from stablecoins c left join stablecoin_operations o on o.stablecoin_id = c.id group by c.platform_id, c.id`,
  );
  return auditStablecoinLedger({
    coins: coinTotals.map((c) => ({ platformId: c.platform_id, stablecoinId: c.id, completedNet: BigInt(c.completed_net) })),
    balances,
    reserveAccountId,
    supplyAccountId,
  });
};
