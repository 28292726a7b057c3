import type { StrandedStart } from '../temporal/start-stranded';
import { strandedCards } from './cards';
import { strandedBulkImports } from './customers';
import { strandedVerifications } from './external-accounts';
import { strandedInvitations } from './invitations';
import { strandedChallenges, strandedQuotes } from './payments';
import { strandedIssuances, strandedStablecoinOperations } from './stablecoins';
import { strandedDeliveries } from './webhooks';

/**
 * Every kind of work recorded in the database before its workflow starts, which the worker's minute
 * sweep starts when the process died in between (`startStranded`). Each lives in the context that
 * owns the row, on its face; adding one is its own file there, its face's export and one line here.
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
