import type { StrandedStart } from '../temporal/start-stranded';
import { strandedCards } from './cards/services/stranded-cards';
import { strandedBulkImports } from './customers/services/stranded-bulk-imports';
import { strandedVerifications } from './external-accounts/services/stranded-verifications';
import { strandedInvitations } from './invitations/services/stranded-invitations';
import { strandedChallenges } from './payments/services/stranded-challenges';
import { strandedQuotes } from './payments/services/stranded-quotes';
import { strandedIssuances, strandedStablecoinOperations } from './stablecoins/services/stranded-stablecoin-work';
import { strandedDeliveries } from './webhooks/services/stranded-deliveries';

/**
 * Every kind of work recorded in the database before its workflow starts, which the worker's minute
 * sweep starts when the process died in between (`startStranded`). Each lives in the context that
 * owns the row; adding one is its own file there and one line here.
 */
export const STRANDED_STARTS: readonly StrandedStart<unknown>[] = [
  strandedDeliveries,
  strandedVerifications,
  strandedQuotes,
  strandedCards,
  strandedBulkImports,
  strandedIssuances,
  strandedStablecoinOperations,
  strandedInvitations,
  strandedChallenges,
];
