// The shape of temporalio/money-transfer-project-template-ts, written here as the speed
// baseline of the funding benchmark: one workflow per transfer, a withdraw activity and a
// deposit activity (ordinary activities, default task queue round trips), an in-memory bank.
import { proxyActivities } from '@temporalio/workflow';
import type { BankActivities } from './activities';

export interface TransferDetails {
  amount: number;
  sourceAccount: string;
  targetAccount: string;
  referenceId: string;
}

const { withdraw, deposit } = proxyActivities<BankActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 5 },
});

export async function moneyTransfer(details: TransferDetails): Promise<string> {
  const withdrawn = await withdraw(details);
  const deposited = await deposit(details);
  return `Transfer complete (transaction IDs: ${withdrawn}, ${deposited})`;
}
