import type { Stablecoin, StablecoinOperation } from '../entities';
import type { StrandedStart } from '../../../temporal/start-stranded';
import { startStablecoinIssuance } from '../starters/stablecoin-issuance';
import { startStablecoinOperation } from '../starters/stablecoin-operation';
import { strandedOperations } from './operations';
import { issuancesUnderWay } from './stablecoins';
import { stablecoinTiming } from './stablecoin-timing';

/*
 * A stablecoin or an operation is recorded first and its workflow started after the commit; if
 * the process dies in between, nothing would move it on. These start the workflow of issuances
 * still under way and of operations still CREATED the grace period after they were recorded
 * (workflow id = the business id: a running workflow is joined, never doubled).
 */

export const strandedIssuances: StrandedStart<Stablecoin> = {
  name: 'stablecoin issuances',
  find: issuancesUnderWay,
  idOf: (coin) => coin.id,
  start: (client, coin, options) => startStablecoinIssuance(client, coin, stablecoinTiming(), options),
};

export const strandedStablecoinOperations: StrandedStart<StablecoinOperation> = {
  name: 'stablecoin operations',
  find: strandedOperations,
  idOf: (op) => op.id,
  start: (client, op, options) => startStablecoinOperation(client, op, stablecoinTiming(), options),
};
