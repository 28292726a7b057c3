import type { LedgerAuditContributor } from '../../ledger';
import { auditCardLedger } from '../domain/card-audit';
import { cardHoldsAccountId, cardNetworkAccountId } from './card-ledger';

/** The card part of the ledger audit: card holds and settlements, the card ledger accounts against the card transactions. */
export const cardLedgerAudit: LedgerAuditContributor = async ({ execute, balances }) => {
  const cardTotals = await execute<{ platform_id: string; currency: string; held: string; to_network: string }[]>(
    `select platform_id, currency, sum(held_amount)::text as held,
       sum(case when direction = 'DEBIT' then settled_amount - refunded_amount else -settled_amount end)::text as to_network
     from card_transactions group by platform_id, currency`,
  );
  const fundingHolds = await execute<{ account_id: string; card_held: string; account_held: string }[]>(
    `select t.account_id, sum(t.held_amount)::text as card_held, max(a.held)::text as account_held
     from card_transactions t join ledger_accounts a on a.id = t.account_id group by t.account_id`,
  );
  return auditCardLedger({
    totals: cardTotals.map((t) => ({ platformId: t.platform_id, currency: t.currency, held: BigInt(t.held), toNetwork: BigInt(t.to_network) })),
    balances,
    holdsAccountId: cardHoldsAccountId,
    networkAccountId: cardNetworkAccountId,
    fundingHolds: fundingHolds.map((f) => ({ accountId: f.account_id, cardHeld: BigInt(f.card_held), accountHeld: BigInt(f.account_held) })),
  });
};
