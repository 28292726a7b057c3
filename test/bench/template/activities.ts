import type { TransferDetails } from './workflows';

/** The template's bank, in memory: balances per account, no I/O. */
export function bankActivities(balances = new Map<string, number>()) {
  return {
    async withdraw(details: TransferDetails): Promise<string> {
      balances.set(details.sourceAccount, (balances.get(details.sourceAccount) ?? 1_000_000) - details.amount);
      return `w-${details.referenceId}`;
    },
    async deposit(details: TransferDetails): Promise<string> {
      balances.set(details.targetAccount, (balances.get(details.targetAccount) ?? 0) + details.amount);
      return `d-${details.referenceId}`;
    },
  };
}

export type BankActivities = ReturnType<typeof bankActivities>;
