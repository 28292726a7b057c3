import type { ExecutionGate } from '../../../domain/execution-gate-contract';
import { PASS } from '../../../domain/execution-gate-contract';
import { assertExternalAccountUsable } from '../domain/account-usage';
import { ExternalAccount } from '../entities';

/**
 * The external accounts a payment uses can be used now: the destination it pays out to, and the
 * account a pull takes the money from. Deleted accounts are read too (a payment keeps the account
 * it was quoted to, and is refused here). Funds that already arrived are not refused for their
 * destination: the quote's creation checked it, and the money is in.
 */
export const externalAccountsUsable: ExecutionGate = {
  name: 'external-accounts-usable',
  async check(em, subject) {
    if (subject.trigger !== 'EXECUTE') return PASS;
    // By id alone, so the execution's own read of the account is reused (no second query).
    const read = async (id: string) => {
      const account = await em.findOne(ExternalAccount, id);
      return account?.platformId === subject.platformId ? account : null;
    };
    const destination = subject.destinationAccountId ? await read(subject.destinationAccountId) : null;
    if (destination) assertExternalAccountUsable(destination, { platformRegion: subject.platformRegion, amountEurCents: subject.amountEurCents });
    const pullFrom = subject.pullAccountId ? await read(subject.pullAccountId) : null;
    if (pullFrom) assertExternalAccountUsable(pullFrom, { platformRegion: subject.platformRegion, field: 'source.accountId' });
    return PASS;
  },
};
