import { scenarioSuffix } from '../../../domain/sandbox-scenarios';

/**
 * What the simulated bank does when the service pulls money from a customer's external account
 * (a direct-debit source such as ACH pull), chosen in the sandbox by the source identifier's
 * last three digits (spec §8, "account that funds an incoming transfer", and "account as quote
 * source" for 009). Delays are durable timers of the payment's workflow.
 */
export type PullPlan =
  | { outcome: 'COLLECTED'; /** Suffix 009: the originating bank returns the pull this long after completion. */ returnedAfterSeconds?: number }
  | { outcome: 'FAILS'; afterSeconds: number; cause: PullFailureCause };

export type PullFailureCause = 'INSUFFICIENT_FUNDS' | 'ACCOUNT_CLOSED' | 'BANK_REJECTED' | 'NOT_SETTLED';

/** About half a minute for a pull that stays pending (005) and for a return (009). */
export const PENDING_PULL_SECONDS = 30;
export const PULL_RETURN_SECONDS = 30;

export function pullPlan(environment: 'SANDBOX' | 'PRODUCTION', sourceIdentifier: string, options: { returnable: boolean }): PullPlan {
  if (environment !== 'SANDBOX') return { outcome: 'COLLECTED' };
  switch (scenarioSuffix(sourceIdentifier)) {
    case '002':
      return { outcome: 'FAILS', afterSeconds: 0, cause: 'INSUFFICIENT_FUNDS' };
    case '003':
      return { outcome: 'FAILS', afterSeconds: 0, cause: 'ACCOUNT_CLOSED' };
    case '004':
      return { outcome: 'FAILS', afterSeconds: 0, cause: 'BANK_REJECTED' };
    case '005':
      return { outcome: 'FAILS', afterSeconds: PENDING_PULL_SECONDS, cause: 'NOT_SETTLED' };
    case '009':
      // The credit is taken back; not simulated when it went into an embedded wallet (spec §8).
      return options.returnable ? { outcome: 'COLLECTED', returnedAfterSeconds: PULL_RETURN_SECONDS } : { outcome: 'COLLECTED' };
    default:
      return { outcome: 'COLLECTED' };
  }
}

/**
 * Which external accounts the service can pull from: bank accounts reached by a direct-debit
 * rail. Today that is ACH, so US bank accounts; push-only rails (SEPA credit transfers, PIX,
 * SPEI, wallets …) cannot fund a quote as its source.
 */
export const PULL_RAILS: readonly string[] = ['ACH'];

export function isPullable(paymentRails: readonly string[]): boolean {
  return paymentRails.some((rail) => PULL_RAILS.includes(rail));
}
