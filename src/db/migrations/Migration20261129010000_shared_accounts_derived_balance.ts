import { Migration } from '@mikro-orm/migrations';

export class Migration20261129010000_shared_accounts_derived_balance extends Migration {
  override name = 'Migration20261129010000_shared_accounts_derived_balance';

  override up(): void {
    // An account that may go negative (a platform's system accounts) keeps no running balance from
    // now on: its balance is the sum of its postings (postings_account_idx serves that sum), so
    // entries post to it without locking its row. Its stored column is zeroed rather than left
    // frozen at a number that would look like a balance to a raw reader.
    this.addSql('update ledger_accounts set balance = 0 where allow_negative and balance <> 0');
  }

  override down(): void {
    this.addSql(`update ledger_accounts a set balance = coalesce((select sum(p.amount) from postings p where p.account_id = a.id), 0) where a.allow_negative`);
  }
}
