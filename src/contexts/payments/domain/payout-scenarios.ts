import { scenarioSuffix } from '../../../domain/sandbox-scenarios';

/**
 * What the simulated rail does with a payout (spec §8, "account as payout destination of a
 * quote"), chosen in the sandbox by the destination identifier's last three digits. Delays are
 * durable timers of the payment's workflow.
 */
export type PayoutPlan =
  | { outcome: 'COMPLETES'; afterSeconds: number }
  | { outcome: 'EXECUTION_FAILS' }
  | { outcome: 'DELIVERY_FAILS'; afterSeconds: number }
  | { outcome: 'RETURNED'; afterSeconds: number; returnedAfterSeconds: number }
  | { outcome: 'USER_CANCELLED'; afterSeconds: number }
  | { outcome: 'PAYOUT_AND_REFUND_FAIL'; afterSeconds: number }
  | { outcome: 'CANCELLED_WHILE_PROCESSING'; refundedAfterSeconds: number };

/** About six minutes for suffix 003, about a minute for 008, half a minute for a return. */
export const SLOW_PAYOUT_SECONDS = 360;
export const CANCELLATION_REFUND_SECONDS = 60;
export const PAYOUT_RETURN_SECONDS = 30;

export function payoutPlan(environment: 'SANDBOX' | 'PRODUCTION', destinationIdentifier: string): PayoutPlan {
  if (environment !== 'SANDBOX') return { outcome: 'COMPLETES', afterSeconds: 0 };
  switch (scenarioSuffix(destinationIdentifier)) {
    case '002':
      return { outcome: 'EXECUTION_FAILS' };
    case '003':
      return { outcome: 'COMPLETES', afterSeconds: SLOW_PAYOUT_SECONDS };
    case '004':
      return { outcome: 'DELIVERY_FAILS', afterSeconds: 0 };
    case '005':
      return { outcome: 'RETURNED', afterSeconds: 0, returnedAfterSeconds: PAYOUT_RETURN_SECONDS };
    case '006':
      return { outcome: 'USER_CANCELLED', afterSeconds: 0 };
    case '007':
      return { outcome: 'PAYOUT_AND_REFUND_FAIL', afterSeconds: 0 };
    case '008':
      return { outcome: 'CANCELLED_WHILE_PROCESSING', refundedAfterSeconds: CANCELLATION_REFUND_SECONDS };
    default:
      return { outcome: 'COMPLETES', afterSeconds: 0 };
  }
}
